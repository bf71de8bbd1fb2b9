import { describeDiscount, describeEligibility, type DescriptionContext } from './promotion-descriptions.js';

const ctx: DescriptionContext = {
  currency: 'GBP',
  productNames: new Map([
    ['prd_cola', 'Cola 330ml can'],
    ['prd_lemon', 'Lemonade 330ml can'],
    ['prd_water', 'Still Water'],
  ]),
  categoryNames: new Map([
    ['cat_drinks', 'Soft Drinks'],
    ['cat_snacks', 'Snacks'],
  ]),
};

describe('describeEligibility', () => {
  it('reads an empty list as everyone', () => expect(describeEligibility([], ctx)).toBe('Everyone qualifies'));

  it('describes each condition kind in plain English with names, not ids', () => {
    expect(describeEligibility([{ kind: 'category_quantity', minQuantity: 3, categoryIds: ['cat_drinks'] }], ctx)).toBe(
      'Buy 3 or more from Soft Drinks',
    );
    expect(
      describeEligibility(
        [{ kind: 'category_quantity', minQuantity: 2, categoryIds: ['cat_drinks', 'cat_snacks'] }],
        ctx,
      ),
    ).toBe('Buy 2 or more from Soft Drinks or Snacks');
    expect(
      describeEligibility(
        [{ kind: 'product_quantity', minQuantity: 2, productIds: ['prd_cola', 'prd_lemon', 'prd_water'] }],
        ctx,
      ),
    ).toBe('Buy 2 or more of Cola 330ml can, Lemonade 330ml can or Still Water');
    expect(describeEligibility([{ kind: 'basket_spend', minSpend: '20' }], ctx)).toBe('Spend GBP 20.00 or more');
    expect(describeEligibility([{ kind: 'customer_group', group: 'LOYALTY_MEMBERS' }], ctx)).toBe(
      'For customers in the loyalty members group',
    );
    expect(describeEligibility([{ kind: 'time_of_day', from: '16:00', to: '19:00' }], ctx)).toBe(
      'Between 16:00 and 19:00',
    );
  });

  it('joins several conditions, all of which must hold', () => {
    expect(
      describeEligibility(
        [
          { kind: 'basket_spend', minSpend: '20.00' },
          { kind: 'customer_group', group: 'LOYALTY_MEMBERS' },
          { kind: 'time_of_day', from: '16:00', to: '19:00' },
        ],
        ctx,
      ),
    ).toBe('Spend GBP 20.00 or more, for customers in the loyalty members group and between 16:00 and 19:00');
  });

  it('never shows an id it cannot name', () => {
    const text = describeEligibility([{ kind: 'product_quantity', minQuantity: 1, productIds: ['prd_gone'] }], ctx);
    expect(text).toBe('Buy 1 or more of selected products');
    expect(text).not.toContain('prd_gone');
  });
});

describe('describeDiscount', () => {
  it('reads an empty list as no discount', () => expect(describeDiscount([], ctx)).toBe('No discount'));

  it('describes each action kind with the tenant currency', () => {
    expect(describeDiscount([{ kind: 'percent_off', percent: '10', target: 'qualifying_items' }], ctx)).toBe(
      '10% off the qualifying items',
    );
    expect(describeDiscount([{ kind: 'percent_off', percent: '12.50', target: 'basket' }], ctx)).toBe(
      '12.5% off the whole basket',
    );
    expect(describeDiscount([{ kind: 'amount_off', amount: '1.5', target: 'qualifying_items' }], ctx)).toBe(
      'GBP 1.50 off the qualifying items',
    );
    expect(describeDiscount([{ kind: 'amount_off', amount: '2.00', target: 'basket' }], ctx)).toBe(
      'GBP 2.00 off the whole basket',
    );
    expect(describeDiscount([{ kind: 'fixed_price', price: '3' }], ctx)).toBe(
      'The qualifying items together for GBP 3.00',
    );
    expect(describeDiscount([{ kind: 'free_items', quantity: 1, which: 'cheapest' }], ctx)).toBe('Cheapest item free');
    expect(describeDiscount([{ kind: 'free_items', quantity: 2, which: 'most_expensive' }], ctx)).toBe(
      '2 most expensive items free',
    );
  });

  it('joins several actions', () => {
    expect(
      describeDiscount(
        [
          { kind: 'free_items', quantity: 1, which: 'cheapest' },
          { kind: 'amount_off', amount: '1', target: 'basket' },
        ],
        { ...ctx, currency: 'EUR' },
      ),
    ).toBe('Cheapest item free and EUR 1.00 off the whole basket');
  });
});

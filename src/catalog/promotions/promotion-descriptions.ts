import { formatDecimal, trimDecimal } from '../../values/decimal.js';
import type { PromotionAction, PromotionCondition } from '../../schema/tables/promotion.entity.js';

/** Names the descriptions may use: public product and category names of the promotion's tenant. */
export interface DescriptionContext {
  readonly currency: string;
  readonly productNames: ReadonlyMap<string, string>;
  readonly categoryNames: ReadonlyMap<string, string>;
}

const money = (amount: string, currency: string): string => `${currency} ${formatDecimal(amount, 2)}`;

/** "A", "A or B", "A, B or C". */
function alternatives(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

/** "A", "A and B", "A, B and C", first letter capitalised. */
function sentence(parts: readonly string[]): string {
  const text = parts.length <= 1 ? parts.join('') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function names(ids: readonly string[], known: ReadonlyMap<string, string>, fallback: string): string {
  const found = ids.map((id) => known.get(id)).filter((name): name is string => name !== undefined);
  return found.length > 0 ? alternatives(found) : fallback;
}

function humanGroup(group: string): string {
  return group.toLowerCase().replace(/_+/g, ' ').trim();
}

function describeCondition(condition: PromotionCondition, ctx: DescriptionContext): string | null {
  switch (condition.kind) {
    case 'product_quantity':
      return `buy ${condition.minQuantity} or more of ${names(condition.productIds, ctx.productNames, 'selected products')}`;
    case 'category_quantity':
      return `buy ${condition.minQuantity} or more from ${names(condition.categoryIds, ctx.categoryNames, 'selected categories')}`;
    case 'basket_spend':
      return `spend ${money(condition.minSpend, ctx.currency)} or more`;
    case 'customer_group':
      return `for customers in the ${humanGroup(condition.group)} group`;
    case 'time_of_day':
      return `between ${condition.from} and ${condition.to}`;
    default:
      return null;
  }
}

function target(value: 'qualifying_items' | 'basket'): string {
  return value === 'basket' ? 'the whole basket' : 'the qualifying items';
}

function describeAction(action: PromotionAction, ctx: DescriptionContext): string | null {
  switch (action.kind) {
    case 'percent_off':
      return `${trimDecimal(formatDecimal(action.percent, 2))}% off ${target(action.target)}`;
    case 'amount_off':
      return `${money(action.amount, ctx.currency)} off ${target(action.target)}`;
    case 'fixed_price':
      return `the qualifying items together for ${money(action.price, ctx.currency)}`;
    case 'free_items': {
      const which = action.which === 'most_expensive' ? 'most expensive' : 'cheapest';
      return action.quantity === 1 ? `${which} item free` : `${action.quantity} ${which} items free`;
    }
    default:
      return null;
  }
}

/** Plain English for who or what qualifies, e.g. "Buy 3 or more from Soft Drinks". */
export function describeEligibility(conditions: readonly PromotionCondition[], ctx: DescriptionContext): string {
  const parts = conditions.map((c) => describeCondition(c, ctx)).filter((p): p is string => p !== null);
  return parts.length === 0 ? 'Everyone qualifies' : sentence(parts);
}

/** Plain English for the discount, e.g. "Cheapest item free". */
export function describeDiscount(actions: readonly PromotionAction[], ctx: DescriptionContext): string {
  const parts = actions.map((a) => describeAction(a, ctx)).filter((p): p is string => p !== null);
  return parts.length === 0 ? 'No discount' : sentence(parts);
}

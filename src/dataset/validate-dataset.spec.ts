import { Column } from 'typeorm';
import type { ColumnMetadataArgs } from 'typeorm/metadata-args/ColumnMetadataArgs.js';
import { Product } from '../schema/tables/product.entity.js';

// A column (named as no real one is) added to the entity before the data-set tools load, as a migration and an entity edit
// would add it (this file has a module registry of its own, so no other test sees it).
Column({ name: 'spec_only_note', type: 'text', nullable: true })(Product.prototype, 'specOnlyNote');
const { PRODUCT_COLUMNS, readByType, validateDatasetShape } = await import('./validate-dataset.js');

const product = {
  id: 'prd_1',
  storeId: 'sto_1',
  categoryId: null,
  name: 'Cola',
  sku: 'C-1',
  unitType: 'item',
  sellingPriceGross: '1.20',
  sellingPriceNet: '1.00',
  taxCategory: 'STANDARD',
  vatRateId: null,
  isActive: true,
  updatedAt: '2026-10-01T08:00:00.000Z',
};

describe('the product fields of a data set', () => {
  it('are the columns of the entity: a new nullable column is a field with no edit of the tools', () => {
    const read = validateDatasetShape({ products: [{ ...product, specOnlyNote: 'a note' }, product] });
    expect(read.problems).toEqual([]);
    expect(read.dataset.products.map((p) => (p as Record<string, unknown>).specOnlyNote)).toEqual(['a note', null]);
    expect(PRODUCT_COLUMNS.at(-1)).toBe('spec_only_note');
  });

  it("reads a new column by its type, with the format's messages", () => {
    expect(validateDatasetShape({ products: [{ ...product, specOnlyNote: 5 }] }).problems).toEqual([
      { path: 'products[0].specOnlyNote', message: 'must be a non-empty string or null, got 5' },
    ]);
  });

  it('keeps the rules beyond a column type', () => {
    const problems = validateDatasetShape({
      products: [
        { ...product, sku: 'x'.repeat(201), sellingPriceNet: '-1.00', unitType: 'box', marginPercent: '-5.00' },
      ],
    }).problems.map(({ path }) => path);
    expect(problems).toEqual(['products[0].sku', 'products[0].unitType', 'products[0].sellingPriceNet']);
  });

  it('stops the tools at a column whose type has no reading, naming it and what to do', () => {
    const jsonb = {
      target: Product,
      mode: 'regular',
      propertyName: 'attributes',
      options: { name: 'attributes', type: 'jsonb', nullable: true },
    } as ColumnMetadataArgs;
    expect(() => readByType(jsonb)).toThrow(
      'products.attributes (jsonb, nullable) has no data-set reading: give attributes a rule in PRODUCT_FIELD_RULES',
    );
  });
});

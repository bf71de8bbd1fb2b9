import { ApiProperty } from '@nestjs/swagger';
import { IdProperty, MoneyProperty, TextProperty, TimestampProperty } from '../../openapi/properties.js';
import { bool, decimal, id, instant, object, oneOf, text } from '../../lists/json-columns.js';
import type { ListRow } from '../../lists/list-definition.js';
import { PageFields } from '../../lists/page.js';
import { ApiSchemaWithExample } from '../../openapi/schema-examples.js';
import { TAX_CATEGORIES, type TaxCategory, UNIT_TYPES, type UnitType } from '../../schema/tables/product.entity.js';

const VAT_RATE_EXAMPLE = {
  id: 'vat_cs_std',
  code: 'S',
  name: 'Standard rate',
  percentage: '20.00',
} satisfies VatRateView;

@ApiSchemaWithExample({
  name: 'VatRate',
  description: 'The VAT rate of a product; null when it has none.',
  example: VAT_RATE_EXAMPLE,
})
export class VatRateView {
  @IdProperty() id: string;
  @TextProperty({ description: 'Short VAT rate code.' }) code: string;
  @TextProperty() name: string;
  @ApiProperty({
    type: String,
    pattern: '^-?[0-9]+\\.[0-9]{2}$',
    description: 'Percentage as a decimal string with 2 decimals.',
  })
  percentage: string;
}

/**
 * The Product of the contract, keys in the specification's order. PRODUCT_ROW below (keyed by
 * this class, in its order) has PostgreSQL write each row as JSON from the public columns only.
 */
/** The demo data's cola can in Camden (fixtures/demo.json). */
const PRODUCT_EXAMPLE = {
  id: 'prd_camden_001',
  storeId: 'sto_camden',
  categoryId: 'cat_camden_sd',
  name: 'Cola 330ml can',
  sku: 'SD-100',
  barcode: '5010000000000',
  brand: 'Fizz',
  size: '330ml',
  unitType: 'item',
  sellingPriceGross: '1.20',
  sellingPriceNet: '1.00',
  taxCategory: 'STANDARD',
  vatRate: VAT_RATE_EXAMPLE,
  isActive: true,
  variablePrice: false,
  ageRestricted: false,
  alcoholRestricted: false,
  tobaccoRestricted: false,
  vapeRestricted: false,
  updatedAt: '2026-10-03T09:00:00.000Z',
} satisfies ProductView;

@ApiSchemaWithExample({ name: 'Product', example: PRODUCT_EXAMPLE })
export class ProductView {
  @IdProperty() id: string;
  @IdProperty() storeId: string;
  @IdProperty({ nullable: true }) categoryId: string | null;
  @TextProperty() name: string;
  @TextProperty() sku: string;
  @TextProperty({ nullable: true }) barcode: string | null;
  @TextProperty({ nullable: true }) brand: string | null;
  @TextProperty({ nullable: true }) size: string | null;
  @ApiProperty({ enum: [...UNIT_TYPES], enumName: 'UnitType' }) unitType: UnitType;
  @MoneyProperty({ description: 'Price including VAT.' }) sellingPriceGross: string;
  @MoneyProperty({ description: 'Price excluding VAT.' }) sellingPriceNet: string;
  @ApiProperty({ enum: [...TAX_CATEGORIES], enumName: 'TaxCategory' }) taxCategory: TaxCategory;
  @ApiProperty({ type: () => VatRateView, nullable: true }) vatRate: VatRateView | null;
  @ApiProperty({ type: Boolean }) isActive: boolean;
  @ApiProperty({ type: Boolean, description: 'Sold at a scale-entered or variable price (for example by weight).' })
  variablePrice: boolean;
  @ApiProperty({ type: Boolean, description: 'The four restriction flags are independent.' }) ageRestricted: boolean;
  @ApiProperty({ type: Boolean }) alcoholRestricted: boolean;
  @ApiProperty({ type: Boolean }) tobaccoRestricted: boolean;
  @ApiProperty({ type: Boolean }) vapeRestricted: boolean;
  @TimestampProperty() updatedAt: string;
}

/**
 * Where each key of the public product comes from, over products `p` and the VAT rate `v` it joins:
 * PRODUCT_LIST's row, the one place where its redaction lives (what is not here never leaves the
 * database). Beside the class, so that a new column is its property, its example value and its SQL
 * in one file; a key missing or extra does not compile, and defineList refuses another order.
 */
export const PRODUCT_ROW = {
  joins: [{ kind: 'LEFT JOIN', table: 'vat_rates', alias: 'v', on: 'v.id = p.vat_rate_id' }],
  columns: {
    id: id('p.id'),
    storeId: id('p.store_id'),
    categoryId: id('p.category_id'),
    name: text('p.name'),
    sku: text('p.sku'),
    barcode: text('p.barcode'),
    brand: text('p.brand'),
    size: text('p.size'),
    unitType: oneOf('p.unit_type', UNIT_TYPES),
    sellingPriceGross: decimal('p.selling_price_gross'),
    sellingPriceNet: decimal('p.selling_price_net'),
    taxCategory: oneOf('p.tax_category', TAX_CATEGORIES),
    vatRate: object<VatRateView>('v.id IS NOT NULL', {
      id: id('v.id'),
      code: text('v.code'),
      name: text('v.name'),
      percentage: decimal('v.percentage'),
    }),
    isActive: bool('p.is_active'),
    variablePrice: bool('p.variable_price'),
    ageRestricted: bool('p.age_restricted'),
    alcoholRestricted: bool('p.alcohol_restricted'),
    tobaccoRestricted: bool('p.tobacco_restricted'),
    vapeRestricted: bool('p.vape_restricted'),
    updatedAt: instant('p.updated_at'),
  },
  // Written when a product or VAT rate is (src/lists/stored-row.ts); a new version with any change above.
  stored: 'product_row_v1',
} satisfies ListRow<ProductView>;

@ApiSchemaWithExample({
  name: 'ProductPage',
  // The first page of Camden's active products, one per page.
  example: { rows: [PRODUCT_EXAMPLE], page: 1, pageSize: 1, total: 36, totalPages: 36 } satisfies ProductPage,
})
export class ProductPage {
  @PageFields.rows([ProductView]) rows: ProductView[];
  @PageFields.page() page: number;
  @PageFields.pageSize() pageSize: number;
  @PageFields.total() total: number;
  @PageFields.totalPages() totalPages: number;
}

import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { formatDecimal } from '../../values/decimal.js';
import { isoMillisSql } from '../../database/timestamp-sql.js';
import { IdProperty, MoneyProperty, PageFields, TextProperty, TimestampProperty } from '../../openapi/properties.js';
import { TAX_CATEGORIES, type TaxCategory, UNIT_TYPES, type UnitType } from './product.entity.js';

/** The columns a product query selects: public ones only, so internal columns never leave the database. */
export const PRODUCT_COLUMNS = {
  id: 'p.id',
  storeId: 'p.store_id',
  categoryId: 'p.category_id',
  name: 'p.name',
  sku: 'p.sku',
  barcode: 'p.barcode',
  brand: 'p.brand',
  size: 'p.size',
  unitType: 'p.unit_type',
  sellingPriceGross: 'p.selling_price_gross',
  sellingPriceNet: 'p.selling_price_net',
  taxCategory: 'p.tax_category',
  vatId: 'v.id',
  vatCode: 'v.code',
  vatName: 'v.name',
  vatPercentage: 'v.percentage',
  isActive: 'p.is_active',
  variablePrice: 'p.variable_price',
  ageRestricted: 'p.age_restricted',
  alcoholRestricted: 'p.alcohol_restricted',
  tobaccoRestricted: 'p.tobacco_restricted',
  vapeRestricted: 'p.vape_restricted',
  updatedAt: isoMillisSql('p.updated_at'),
} as const;

export type ProductRow = {
  id: string;
  storeId: string;
  categoryId: string | null;
  name: string;
  sku: string;
  barcode: string | null;
  brand: string | null;
  size: string | null;
  unitType: UnitType;
  sellingPriceGross: string;
  sellingPriceNet: string;
  taxCategory: TaxCategory;
  vatId: string | null;
  vatCode: string | null;
  vatName: string | null;
  vatPercentage: string | null;
  isActive: boolean;
  variablePrice: boolean;
  ageRestricted: boolean;
  alcoholRestricted: boolean;
  tobaccoRestricted: boolean;
  vapeRestricted: boolean;
  updatedAt: string;
};

@ApiSchema({ name: 'VatRate' })
export class VatRateView {
  @IdProperty({ example: 'vat_cs_std' }) id: string;
  @TextProperty({ description: 'Short VAT rate code.', example: 'S' }) code: string;
  @TextProperty({ example: 'Standard rate' }) name: string;
  @ApiProperty({
    type: String,
    pattern: '^-?[0-9]+\\.[0-9]{2}$',
    description: 'Percentage as a decimal string with 2 decimals.',
    example: '20.00',
  })
  percentage: string;
}

@ApiSchema({ name: 'Product' })
export class ProductView {
  @IdProperty({ example: 'prd_camden_001' }) id: string;
  @IdProperty({ example: 'sto_camden' }) storeId: string;
  @IdProperty({ nullable: true, example: 'cat_camden_sd' }) categoryId: string | null;
  @TextProperty({ example: 'Cola 330ml can' }) name: string;
  @TextProperty({ example: 'SD-100' }) sku: string;
  @TextProperty({ nullable: true, example: '5010000000000' }) barcode: string | null;
  @TextProperty({ nullable: true, example: 'Fizz' }) brand: string | null;
  @TextProperty({ nullable: true, example: '330ml' }) size: string | null;
  @ApiProperty({ enum: [...UNIT_TYPES], enumName: 'UnitType', example: 'item' }) unitType: UnitType;
  @MoneyProperty({ description: 'Price including VAT.' }) sellingPriceGross: string;
  @MoneyProperty({ description: 'Price excluding VAT.', example: '1.00' }) sellingPriceNet: string;
  @ApiProperty({ enum: [...TAX_CATEGORIES], enumName: 'TaxCategory', example: 'STANDARD' }) taxCategory: TaxCategory;
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

export class ProductPage {
  @ApiProperty({ type: () => [ProductView] }) rows: ProductView[];
  @PageFields.page() page: number;
  @PageFields.pageSize() pageSize: number;
  @PageFields.total() total: number;
  @PageFields.totalPages() totalPages: number;
}

/** The Product of the contract, keys in the specification's order; nothing else can appear. */
export function toProductView(row: ProductRow): ProductView {
  return {
    id: row.id,
    storeId: row.storeId,
    categoryId: row.categoryId,
    name: row.name,
    sku: row.sku,
    barcode: row.barcode,
    brand: row.brand,
    size: row.size,
    unitType: row.unitType,
    sellingPriceGross: formatDecimal(row.sellingPriceGross, 2),
    sellingPriceNet: formatDecimal(row.sellingPriceNet, 2),
    taxCategory: row.taxCategory,
    vatRate:
      row.vatId === null
        ? null
        : { id: row.vatId, code: row.vatCode!, name: row.vatName!, percentage: formatDecimal(row.vatPercentage!, 2) },
    isActive: row.isActive,
    variablePrice: row.variablePrice,
    ageRestricted: row.ageRestricted,
    alcoholRestricted: row.alcoholRestricted,
    tobaccoRestricted: row.tobaccoRestricted,
    vapeRestricted: row.vapeRestricted,
    updatedAt: row.updatedAt,
  };
}

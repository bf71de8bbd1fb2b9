import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IdProperty, MoneyProperty, PageFields, TextProperty, TimestampProperty } from '../../openapi/properties.js';
import { TAX_CATEGORIES, type TaxCategory, UNIT_TYPES, type UnitType } from './product.entity.js';

@ApiSchema({ name: 'VatRate', description: 'The VAT rate of a product; null when it has none.' })
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

/**
 * The Product of the contract, keys in the specification's order. ProductsRepository has PostgreSQL
 * write each row as JSON in exactly this order from the public columns only (PUBLIC_PRODUCT).
 */
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
  @PageFields.rows([ProductView]) rows: ProductView[];
  @PageFields.page() page: number;
  @PageFields.pageSize() pageSize: number;
  @PageFields.total() total: number;
  @PageFields.totalPages() totalPages: number;
}

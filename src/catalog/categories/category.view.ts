import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IdProperty, TextProperty, TimestampProperty } from '../../openapi/properties.js';

/**
 * The Category of the contract, keys in the specification's order. CategoriesRepository has PostgreSQL
 * write each row as JSON in exactly this order (`isArchived` is never shown).
 */
@ApiSchema({ name: 'Category' })
export class CategoryView {
  @IdProperty({ example: 'cat_camden_sd' }) id: string;
  @IdProperty({ example: 'sto_camden' }) storeId: string;
  @IdProperty({ nullable: true, example: 'cat_camden_dr' }) parentCategoryId: string | null;
  @TextProperty({ example: 'Soft Drinks' }) name: string;
  @TextProperty({ nullable: true, example: 'SD' }) code: string | null;
  @TextProperty({ nullable: true, example: null }) description: string | null;
  @ApiProperty({ type: 'integer', format: 'int32', example: 10 }) sortOrder: number;
  @ApiProperty({ type: Boolean }) isActive: boolean;
  @TimestampProperty() updatedAt: string;
}

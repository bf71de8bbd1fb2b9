import { ApiProperty } from '@nestjs/swagger';
import { IdProperty, TextProperty, TimestampProperty } from '../../openapi/properties.js';
import { ApiSchemaWithExample } from '../../openapi/schema-examples.js';

/**
 * The Category of the contract, keys in the specification's order. CATEGORY_LIST's columns (keyed by
 * this class, in its order) have PostgreSQL write each row as JSON (`isArchived` is never shown).
 */
@ApiSchemaWithExample({
  name: 'Category',
  // The demo data's soft drinks, under Camden's drinks aisle.
  example: {
    id: 'cat_camden_sd',
    storeId: 'sto_camden',
    parentCategoryId: 'cat_camden_dr',
    name: 'Soft Drinks',
    code: 'SD',
    description: null,
    sortOrder: 10,
    isActive: true,
    updatedAt: '2026-10-02T08:00:00.000Z',
  } satisfies CategoryView,
})
export class CategoryView {
  @IdProperty() id: string;
  @IdProperty() storeId: string;
  @IdProperty({ nullable: true }) parentCategoryId: string | null;
  @TextProperty() name: string;
  @TextProperty({ nullable: true }) code: string | null;
  @TextProperty({ nullable: true }) description: string | null;
  @ApiProperty({ type: 'integer', format: 'int32' }) sortOrder: number;
  @ApiProperty({ type: Boolean }) isActive: boolean;
  @TimestampProperty() updatedAt: string;
}

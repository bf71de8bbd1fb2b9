import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { isoMillisSql } from '../../database/timestamp-sql.js';
import { IdProperty, TextProperty, TimestampProperty } from '../../openapi/properties.js';

export const CATEGORY_COLUMNS = {
  id: 'c.id',
  storeId: 'c.store_id',
  parentCategoryId: 'c.parent_category_id',
  name: 'c.name',
  code: 'c.code',
  description: 'c.description',
  sortOrder: 'c.sort_order',
  isActive: 'c.is_active',
  updatedAt: isoMillisSql('c.updated_at'),
} as const;

export type CategoryRow = {
  id: string;
  storeId: string;
  parentCategoryId: string | null;
  name: string;
  code: string | null;
  description: string | null;
  sortOrder: number;
  isActive: boolean;
  updatedAt: string;
};

@ApiSchema({ name: 'Category' })
export class CategoryView {
  @IdProperty({ example: 'cat_camden_sd' }) id: string;
  @IdProperty({ example: 'sto_camden' }) storeId: string;
  @IdProperty({ nullable: true, example: 'cat_camden_dr' }) parentCategoryId: string | null;
  @TextProperty({ example: 'Soft Drinks' }) name: string;
  @TextProperty({ nullable: true, example: 'SD' }) code: string | null;
  @TextProperty({ nullable: true, example: null }) description: string | null;
  @ApiProperty({ type: 'integer', example: 10 }) sortOrder: number;
  @ApiProperty({ type: Boolean }) isActive: boolean;
  @TimestampProperty() updatedAt: string;
}

/** The Category of the contract, keys in the specification's order (`isArchived` is never shown). */
export function toCategoryView(row: CategoryRow): CategoryView {
  return {
    id: row.id,
    storeId: row.storeId,
    parentCategoryId: row.parentCategoryId,
    name: row.name,
    code: row.code,
    description: row.description,
    sortOrder: row.sortOrder,
    isActive: row.isActive,
    updatedAt: row.updatedAt,
  };
}

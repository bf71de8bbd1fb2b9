import { toIsoMillis } from '../../shared/format/decimal.js';

export const CATEGORY_COLUMNS = {
  id: 'c.id',
  storeId: 'c.store_id',
  parentCategoryId: 'c.parent_category_id',
  name: 'c.name',
  code: 'c.code',
  description: 'c.description',
  sortOrder: 'c.sort_order',
  isActive: 'c.is_active',
  updatedAt: 'c.updated_at',
} as const;

export type CategoryRow = {
  id: string; storeId: string; parentCategoryId: string | null; name: string; code: string | null;
  description: string | null; sortOrder: number; isActive: boolean; updatedAt: Date;
};

export interface CategoryView {
  id: string;
  storeId: string;
  parentCategoryId: string | null;
  name: string;
  code: string | null;
  description: string | null;
  sortOrder: number;
  isActive: boolean;
  updatedAt: string;
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
    updatedAt: toIsoMillis(row.updatedAt),
  };
}

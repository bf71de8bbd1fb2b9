import { bool, id, instant, integer, text } from '../../lists/json-columns.js';
import { choice, defineList, equals, filtersOf, flag } from '../../lists/list-definition.js';
import { BooleanParam, EnumParam, IdParam, StoreIdParam } from '../../params/params.js';
import { CategoryView } from './category.view.js';

export const CATEGORY_SORTS = ['sortOrder', 'name'] as const;
export type CategorySort = (typeof CATEGORY_SORTS)[number];

export class ListCategoriesQuery {
  @StoreIdParam()
  storeId?: string;

  @IdParam({
    description: 'Only the direct children of this category. Exact, case-sensitive.',
    example: 'cat_camden_dr',
  })
  parentCategoryId?: string;

  @BooleanParam({
    description: 'true: only active categories; false: inactive ones too. Archived categories are never returned.',
    default: true,
    example: false,
  })
  activeOnly: boolean = true;

  @EnumParam(CATEGORY_SORTS, {
    description:
      'sortOrder (default): by sortOrder, then lower-case name, then id. name: by lower-case name, then id. Names compare in byte order.',
    default: 'sortOrder',
    example: 'name',
  })
  sortBy: CategorySort = 'sortOrder';
}

/**
 * The categories, read whole (not paginated): each as JSON text in the contract's key order
 * (CategoryView), from its public columns (`is_archived` is only ever a condition), stored with the
 * category (the row reads no other table). Archived categories are never returned.
 */
export const CATEGORY_LIST = defineList(ListCategoriesQuery, CategoryView, {
  name: 'categories',
  from: { table: 'categories', alias: 'c' },
  key: 'c.id',
  where: ['NOT c.is_archived'],
  filters: filtersOf<ListCategoriesQuery>()({
    activeOnly: flag('c.is_active'),
    parentCategoryId: equals('c.parent_category_id'),
    sortBy: choice(CATEGORY_SORTS),
  }),
  // Names compare by lower case, in byte order, so the order is the same on every database.
  order: {
    by: 'sortBy',
    orders: {
      sortOrder: 'c.sort_order, lower(c.name) COLLATE "C", c.id',
      name: 'lower(c.name) COLLATE "C", c.id',
    } satisfies Record<CategorySort, string>,
  },
  row: {
    joins: [],
    columns: {
      id: id('c.id'),
      storeId: id('c.store_id'),
      parentCategoryId: id('c.parent_category_id'),
      name: text('c.name'),
      code: text('c.code'),
      description: text('c.description'),
      sortOrder: integer('c.sort_order'),
      isActive: bool('c.is_active'),
      updatedAt: instant('c.updated_at'),
    },
    // Written when a category is (src/lists/stored-row.ts); a new version with any change above.
    stored: 'category_row_v1',
  },
  examples: [
    {
      description: 'active categories by sortOrder',
      stores: 'all',
      all: true,
      filters: { activeOnly: true, sortBy: 'sortOrder' },
    },
    {
      description: 'children of a category by name, inactive too, one store',
      stores: 'one',
      all: true,
      filters: { activeOnly: false, parentCategoryId: 'cat_a1_drinks', sortBy: 'name' },
    },
  ],
});

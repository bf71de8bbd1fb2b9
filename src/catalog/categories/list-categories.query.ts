import { CATEGORY_SORTS, type CategorySort } from './categories.repository.js';
import { BooleanParam, EnumParam, IdParam, StoreIdParam } from '../../params/params.js';

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

import { BooleanParam, EnumParam, IdParam } from '../../shared/validation/params.js';

export const CATEGORY_SORTS = ['sortOrder', 'name'] as const;
export type CategorySort = (typeof CATEGORY_SORTS)[number];

export class ListCategoriesQuery {
  @IdParam() storeId?: string;
  @IdParam() parentCategoryId?: string;
  @BooleanParam() activeOnly: boolean = true;
  @EnumParam(CATEGORY_SORTS) sortBy: CategorySort = 'sortOrder';
}

import { PageQuery } from '../../shared/pagination/pagination.js';
import { BooleanParam, DateTimeParam, IdParam, TextParam } from '../../shared/validation/params.js';

export class ListStockQuery extends PageQuery {
  @IdParam() storeId?: string;
  @IdParam() productId?: string;
  @TextParam() sku?: string;
  @TextParam() barcode?: string;
  @IdParam() categoryId?: string;
  @DateTimeParam() updatedSince?: string;
  @BooleanParam() lowStockOnly?: boolean;
  @BooleanParam() activeOnly: boolean = true;
}

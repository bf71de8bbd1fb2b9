import { ValidateBy } from 'class-validator';
import { PageQuery } from '../../shared/pagination/pagination.js';
import { MAX_SEARCH_TERMS, searchTerms } from '../../shared/validation/like-pattern.js';
import { BooleanParam, DateTimeParam, IdParam, TextParam } from '../../shared/validation/params.js';

export class ListProductsQuery extends PageQuery {
  @IdParam() storeId?: string;
  @IdParam() categoryId?: string;
  @TextParam()
  @ValidateBy({
    name: 'searchTerms',
    validator: {
      validate: (value) => typeof value !== 'string' || (searchTerms(value).length >= 1 && searchTerms(value).length <= MAX_SEARCH_TERMS),
      defaultMessage: () => `must contain 1 to ${MAX_SEARCH_TERMS} search terms separated by white space`,
    },
  })
  q?: string;
  @TextParam() barcode?: string;
  @TextParam() sku?: string;
  @DateTimeParam() updatedSince?: string;
  @BooleanParam() activeOnly: boolean = true;
}

export class ProductIdParams {
  @IdParam({ optional: false }) id: string;
}

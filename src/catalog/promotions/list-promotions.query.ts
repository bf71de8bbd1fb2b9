import { BooleanParam, DateTimeParam, IdParam, TextParam } from '../../shared/validation/params.js';

export class ListPromotionsQuery {
  @IdParam() storeId?: string;
  @DateTimeParam() activeAt?: string;
  @TextParam() type?: string;
  @BooleanParam() activeOnly: boolean = true;
}

import type { Instant } from '../../values/formats.js';
import { PageQuery } from '../../pagination/pagination.js';
import { BooleanParam, DateTimeParam, IdParam, TextParam } from '../../params/params.js';

export class ListStockQuery extends PageQuery {
  @IdParam({
    description:
      'Only this store. It must be one of the stores the key may read, otherwise the answer is 404 not_found.',
    example: 'sto_camden',
  })
  storeId?: string;

  @IdParam({ description: 'Only this product.' })
  productId?: string;

  @TextParam({ description: 'Exact, case-sensitive SKU.' })
  sku?: string;

  @TextParam({ description: 'Exact, case-sensitive barcode.' })
  barcode?: string;

  @IdParam({ description: "Only products whose own category is this one (not its subcategories')." })
  categoryId?: string;

  @DateTimeParam({
    description:
      "Only rows with updatedAt at or after this instant. A row's updatedAt is the later of the product's and " +
      "its stock level's update times, so passing the largest updatedAt seen so far misses no change.",
    example: '2026-10-01T00:00:00Z',
  })
  updatedSince?: Instant;

  @BooleanParam({ description: 'true: only rows whose availability is low_stock. false filters nothing.' })
  lowStockOnly?: boolean;

  @BooleanParam({ description: 'true: only active products; false: inactive ones too.', default: true })
  activeOnly: boolean = true;
}

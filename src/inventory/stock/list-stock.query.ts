import type { Instant } from '../../values/formats.js';
import { PageQuery } from '../../pagination/pagination.js';
import { BooleanParam, DateTimeParam, IdParam, SyncPositionParam, TextParam } from '../../params/params.js';
import { SYNC_POSITION_PATTERN_TEXT } from '../../pagination/walk.js';
import { SAMPLE_SYNC_POSITION } from '../../openapi/samples.js';

export class ListStockQuery extends PageQuery {
  @IdParam({
    description:
      'Only this store. It must be one of the stores the key may read, otherwise the answer is 404 not_found.',
    example: 'sto_camden',
  })
  storeId?: string;

  @IdParam({ description: 'Only this product.', example: 'prd_camden_001' })
  productId?: string;

  @TextParam({ description: 'Exact, case-sensitive SKU.', example: 'SD-100' })
  sku?: string;

  @TextParam({ description: 'Exact, case-sensitive barcode.', example: '5010000000000' })
  barcode?: string;

  @IdParam({
    description: "Only products whose own category is this one (not its subcategories').",
    example: 'cat_camden_sd',
  })
  categoryId?: string;

  @DateTimeParam({
    description:
      "Only rows with updatedAt at or after this instant (a row's updatedAt is the later of the product's and " +
      "its stock level's update times). To keep a copy in sync, use changedSince instead: timestamps written " +
      'by other systems or by transactions that commit late can fall behind the largest updatedAt already seen.',
    example: '2026-10-01T00:00:00Z',
  })
  updatedSince?: Instant;

  @BooleanParam({
    description: 'true: only rows whose availability is low_stock. false filters nothing.',
    example: true,
  })
  lowStockOnly?: boolean;

  @BooleanParam({ description: 'true: only active products; false: inactive ones too.', default: true, example: false })
  activeOnly: boolean = true;

  @SyncPositionParam({
    pattern: SYNC_POSITION_PATTERN_TEXT,
    filters: ['productId', 'sku', 'barcode', 'categoryId', 'updatedSince', 'lowStockOnly'],
    example: SAMPLE_SYNC_POSITION,
    description:
      'A sync position (the `Sync-Position` header of an earlier walk): only rows whose product or stock ' +
      'level changed since, inactive products included. Needs activeOnly=false; combines only with storeId, ' +
      'pageSize and cursor. Follow the `Link` next cursors to the end and store the new Sync-Position. ' +
      'Deletions are not signalled.',
  })
  changedSince?: string;
}

import type { Instant } from '../../values/formats.js';
import { PageQuery } from '../../pagination/pagination.js';
import { MAX_SEARCH_TERMS, SEARCH_PATTERN_TEXT, searchTerms } from '../../values/like-pattern.js';
import {
  BooleanParam,
  DateTimeParam,
  ID_PATTERN_TEXT,
  IdParam,
  SyncPositionParam,
  TextParam,
} from '../../params/params.js';
import { SYNC_POSITION_PATTERN_TEXT } from '../../pagination/walk.js';
import { SAMPLE_SYNC_POSITION } from '../../openapi/samples.js';

export class ListProductsQuery extends PageQuery {
  @IdParam({
    description:
      'Only this store. It must be one of the stores the key may read, otherwise the answer is 404 not_found.',
    example: 'sto_camden',
  })
  storeId?: string;

  @IdParam({
    description: "Only products whose own category is this one (not its subcategories'). Exact, case-sensitive.",
    example: 'cat_camden_sd',
  })
  categoryId?: string;

  @TextParam({
    description:
      `Free-text search: split on white space into at most ${MAX_SEARCH_TERMS} ` +
      `terms; a product matches when every term is a case-insensitive substring ` +
      `of its name, sku, barcode or brand. %, _ and \\ are literal characters.`,
    example: 'cola 330',
    pattern: SEARCH_PATTERN_TEXT,
    check: {
      test: (value) => searchTerms(value).length >= 1 && searchTerms(value).length <= MAX_SEARCH_TERMS,
      message: `must contain 1 to ${MAX_SEARCH_TERMS} search terms separated by white space`,
    },
  })
  q?: string;

  @TextParam({ description: 'Exact, case-sensitive barcode.', example: '5010000000000' })
  barcode?: string;

  @TextParam({ description: 'Exact, case-sensitive SKU.', example: 'SD-100' })
  sku?: string;

  @DateTimeParam({
    description:
      'Only products with updatedAt at or after this instant (RFC 3339 with Z or an offset). ' +
      'To keep a copy in sync, use changedSince instead: timestamps written by other systems or by ' +
      'transactions that commit late can fall behind the largest updatedAt already seen.',
    example: '2026-10-01T00:00:00Z',
  })
  updatedSince?: Instant;

  @BooleanParam({
    description: 'true: only active products; false: inactive ones too. Exactly true or false.',
    default: true,
    example: false,
  })
  activeOnly: boolean = true;

  @SyncPositionParam({
    pattern: SYNC_POSITION_PATTERN_TEXT,
    filters: ['categoryId', 'q', 'barcode', 'sku', 'updatedSince'],
    example: SAMPLE_SYNC_POSITION,
    description:
      'A sync position (the `Sync-Position` header of an earlier walk): only products whose public data ' +
      'changed since, inactive ones included. Needs activeOnly=false; combines only with storeId, pageSize ' +
      'and cursor. Follow the `Link` next cursors to the end and store the new Sync-Position. Deletions ' +
      'are not signalled.',
  })
  changedSince?: string;
}

/** The path parameter as documented: PathAndQuery validates it, so Swagger cannot read it off a @Param(). */
export const PRODUCT_ID_PARAM = {
  required: true,
  description: 'Product id.',
  schema: { minLength: 1, maxLength: 128, pattern: ID_PATTERN_TEXT, example: 'prd_camden_001', type: 'string' },
} as const;

export class ProductIdParams {
  @IdParam({ description: 'Product id.', required: true, example: 'prd_camden_001' })
  id: string;
}

/** An operation without query parameters: any one given is unknown, so a 400 (never silently ignored). */
export class NoQueryParams {}

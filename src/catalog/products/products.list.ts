import {
  defineList,
  equals,
  filtersOf,
  flag,
  instant,
  RECENT_POSITION,
  since,
  terms,
} from '../../lists/list-definition.js';
import { PRODUCT_ROW, ProductView } from './product.view.js';
import { ChangedSinceParam, PageQuery } from '../../lists/page.js';
import type { Instant } from '../../values/formats.js';
import { escapeLike, MAX_SEARCH_TERMS, SEARCH_PATTERN_TEXT, searchTerms } from '../../values/like-pattern.js';
import {
  BooleanParam,
  DateTimeParam,
  ID_PATTERN_TEXT,
  IdParam,
  TextParam,
  StoreIdParam,
  SkuParam,
  BarcodeParam,
} from '../../params/params.js';

/**
 * The filters of the product list (docs/api-rules.md#filters), in the order their conditions are
 * written: each parameter's condition on products `p`, and the index that serves it.
 */
const FILTERS = filtersOf<ListProductsQuery>()({
  activeOnly: flag('p.is_active'),
  categoryId: equals('p.category_id', 'products_tenant_category_idx'),
  sku: equals('p.sku', 'products_tenant_sku_idx'),
  barcode: equals('p.barcode', 'products_tenant_barcode_idx'),
  updatedSince: since('p.updated_at', 'products_tenant_updated_idx'),
  // search_text is lower(name sku barcode brand) joined by spaces; a term has no white space, so it
  // can only match inside one field.
  q: terms(
    searchTerms,
    (term) => `p.search_text LIKE ('%' || lower(${term}) || '%')`,
    escapeLike,
    'products_search_trgm_idx',
  ),
});

export class ListProductsQuery extends PageQuery {
  @StoreIdParam()
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

  @BarcodeParam()
  barcode?: string;

  @SkuParam()
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

  @ChangedSinceParam({
    filters: FILTERS,
    description:
      'A sync position (the `Sync-Position` header of an earlier walk): only products whose public data ' +
      'changed since, inactive ones included. Needs activeOnly=false; combines only with storeId, pageSize ' +
      'and cursor. Follow the `Link` next cursors to the end, then walk /v1/catalog/product-removals from ' +
      "the same position (what left your view), then store this walk's new Sync-Position.",
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

/**
 * The product list. Its row is the public product, written by PostgreSQL as JSON text in the
 * contract's key order (ProductView): the only product columns any response is made of. Costs,
 * margin, supplier and staff columns are never selected.
 */
export const PRODUCT_LIST = defineList(ListProductsQuery, ProductView, {
  name: 'products',
  from: { table: 'products', alias: 'p' },
  key: 'p.id',
  filters: FILTERS,
  // Only the scope and activeOnly: the total is read from product_counts (kept exact by triggers).
  count: { from: { table: 'product_counts', alias: 'c' }, sum: 'c.n', filters: { activeOnly: 'c.is_active' } },
  row: PRODUCT_ROW,
  // A product's row reads its VAT rate: a round brings the products of every VAT rate changed since.
  sync: {
    marker: 'change_xact',
    removalId: 'id',
    inputs: [{ kind: 'parent', from: { table: 'vat_rates', alias: 'v' }, key: 'v.id', via: 'p.vat_rate_id' }],
  },
  examples: [
    { description: 'active products of every store, page 1', stores: 'all', filters: { activeOnly: true } },
    {
      description: 'every product of one store, page 3',
      stores: 'one',
      filters: { activeOnly: false },
      window: { pageSize: 2, offset: 4 },
    },
    {
      description: 'by category, sku, barcode and updatedSince in a list of stores',
      stores: 'list',
      filters: {
        activeOnly: true,
        categoryId: 'cat_a1_soft',
        sku: 'COLA-330',
        barcode: '5000112637922',
        updatedSince: instant('2026-10-01T00:00:00Z'),
      },
      answers: ['prd_a1_cola'],
    },
    {
      description: 'search terms',
      stores: 'all',
      filters: { activeOnly: true, q: 'cola 330' },
      answers: ['prd_a1_cola', 'prd_a1_diet', 'prd_a2_cola'],
    },
    {
      description: 'after an id (cursor)',
      stores: 'all',
      filters: { activeOnly: true },
      window: { pageSize: 50, offset: 0, afterId: 'prd_a1_cola' },
    },
    {
      description: 'a sync walk begins (every row, the position taken)',
      stores: 'all',
      filters: { activeOnly: false },
      window: { pageSize: 100, offset: 0 },
      sync: { takeHorizon: true },
    },
    {
      description: 'a page of an incremental sync walk (changed since a position, after an id)',
      stores: 'all',
      filters: { activeOnly: false },
      window: { pageSize: 100, offset: 0, afterId: 'prd_a1_cola' },
      sync: { changedSince: RECENT_POSITION, caughtUpTo: RECENT_POSITION },
    },
    {
      description: 'a page of an incremental sync walk after VAT rates changed and stores came into view',
      stores: 'all',
      filters: { activeOnly: false },
      window: { pageSize: 100, offset: 0, afterId: 'prd_a1_cola' },
      sync: { changedSince: '1', caughtUpTo: '2' },
    },
    { description: 'findById', stores: 'all', id: 'prd_a1_cola' },
    { description: 'findById: a key limited to one store', stores: 'one', id: 'prd_a1_cola', answers: ['prd_a1_cola'] },
  ],
});

import type { RemovalsOf } from '../../lists/removals.js';
import { defineList, equals, flag, since, terms } from '../../lists/list-definition.js';
import { ChangedSinceParam, PageQuery } from '../../lists/page.js';
import { isoMillisSql } from '../../database/sql-format.js';
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
const FILTERS = {
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
};

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
export const PRODUCT_LIST = defineList({
  name: 'products',
  from: { table: 'products', alias: 'p' },
  key: 'p.id',
  filters: FILTERS,
  // Only the scope and activeOnly: the total is read from product_counts (kept exact by triggers).
  count: { from: { table: 'product_counts', alias: 'c' }, sum: 'c.n', filters: { activeOnly: 'c.is_active' } },
  row: {
    joins: [{ kind: 'LEFT JOIN', table: 'vat_rates', alias: 'v', on: 'v.id = p.vat_rate_id' }],
    select: `p.id, p.store_id AS "storeId", p.category_id AS "categoryId", p.name, p.sku, p.barcode, p.brand, p.size,
           p.unit_type AS "unitType", p.selling_price_gross::text AS "sellingPriceGross",
           p.selling_price_net::text AS "sellingPriceNet", p.tax_category AS "taxCategory",
           (SELECT row_to_json(vr) FROM (SELECT v.id, v.code, v.name, v.percentage::text AS percentage) vr
             WHERE v.id IS NOT NULL) AS "vatRate",
           p.is_active AS "isActive", p.variable_price AS "variablePrice", p.age_restricted AS "ageRestricted",
           p.alcohol_restricted AS "alcoholRestricted", p.tobacco_restricted AS "tobaccoRestricted",
           p.vape_restricted AS "vapeRestricted", ${isoMillisSql('p.updated_at')} AS "updatedAt"`,
  },
  // A product's row reads its VAT rate: a round brings the products of every VAT rate changed since.
  sync: {
    marker: 'change_xact',
    inputs: [{ kind: 'parent', from: { table: 'vat_rates', alias: 'v' }, key: 'v.id', via: 'p.vat_rate_id' }],
  },
});

/** The list's removals feed (src/lists/removals.ts): its rows name the product as the list's row does. */
export const PRODUCT_REMOVALS: RemovalsOf = { list: PRODUCT_LIST, idName: 'id' };

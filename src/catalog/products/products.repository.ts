import { Injectable } from '@nestjs/common';
import { isoMillisSql } from '../../database/sql-format.js';
import type { JsonText } from '../../values/json-text.js';
import { Shapes, type StatementBuilder } from '../../database/statement.js';
import type { PageWindow } from '../../pagination/pagination.js';
import type { ListedRows, SyncRead } from '../../pagination/walk.js';
import { type DataScope, scopeCondition, scopeShape } from '../../tenancy/data-scope.js';
import { ScopedReader } from '../../tenancy/scoped-reader.js';
import { toPostgresTimestamp, type Instant } from '../../values/formats.js';
import { escapeLike } from '../../values/like-pattern.js';

/** The filters of the product list (docs/api-rules.md#filters). */
export interface ProductFilter {
  readonly activeOnly: boolean;
  readonly categoryId?: string;
  readonly sku?: string;
  readonly barcode?: string;
  readonly updatedSince?: Instant;
  /** Every term must be a case-insensitive substring of the name, sku, barcode or brand. */
  readonly searchTerms?: readonly string[];
}

type ListInput = {
  readonly scope: DataScope;
  readonly filter: ProductFilter;
  readonly window: PageWindow;
  readonly sync: SyncRead;
};
type IdInput = { readonly scope: DataScope; readonly id: string };

/**
 * The public product, written by PostgreSQL as JSON text in the contract's key order (ProductView):
 * the only product columns any response is made of. Costs, margin, supplier and staff columns are
 * never selected. Expects `p` (products); joins the VAT rate as `v`.
 */
const PUBLIC_PRODUCT = `LEFT JOIN vat_rates v ON v.id = p.vat_rate_id
  CROSS JOIN LATERAL (
    SELECT p.id, p.store_id AS "storeId", p.category_id AS "categoryId", p.name, p.sku, p.barcode, p.brand, p.size,
           p.unit_type AS "unitType", p.selling_price_gross::text AS "sellingPriceGross",
           p.selling_price_net::text AS "sellingPriceNet", p.tax_category AS "taxCategory",
           (SELECT row_to_json(vr) FROM (SELECT v.id, v.code, v.name, v.percentage::text AS percentage) vr
             WHERE v.id IS NOT NULL) AS "vatRate",
           p.is_active AS "isActive", p.variable_price AS "variablePrice", p.age_restricted AS "ageRestricted",
           p.alcohol_restricted AS "alcoholRestricted", p.tobacco_restricted AS "tobaccoRestricted",
           p.vape_restricted AS "vapeRestricted", ${isoMillisSql('p.updated_at')} AS "updatedAt"
  ) r`;

/** Only the scope and activeOnly: the total is read from product_counts (kept exact by triggers). */
const countsOnly = (i: ListInput): boolean =>
  i.sync.changedSince === undefined &&
  i.filter.categoryId === undefined &&
  i.filter.sku === undefined &&
  i.filter.barcode === undefined &&
  i.filter.updatedSince === undefined &&
  i.filter.searchTerms === undefined;

const filterShape = (i: ListInput): string =>
  [
    scopeShape(i.scope),
    i.filter.activeOnly,
    i.filter.categoryId !== undefined,
    i.filter.sku !== undefined,
    i.filter.barcode !== undefined,
    i.filter.updatedSince !== undefined,
    i.filter.searchTerms?.length ?? 0,
    i.sync.changedSince !== undefined,
  ].join();

/** The WHERE conditions on products `p` for a list's scope and filters (the scope's parameters first). */
function productConditions(i: ListInput, sql: StatementBuilder<ListInput>): string[] {
  const where = [scopeCondition(sql, i.scope).on('p')];
  const f = i.filter;
  if (f.activeOnly) where.push('p.is_active');
  if (f.categoryId !== undefined) where.push(`p.category_id = ${sql.param((x) => x.filter.categoryId)}`);
  if (f.sku !== undefined) where.push(`p.sku = ${sql.param((x) => x.filter.sku)}`);
  if (f.barcode !== undefined) where.push(`p.barcode = ${sql.param((x) => x.filter.barcode)}`);
  if (f.updatedSince !== undefined) {
    const since = sql.param((x) => toPostgresTimestamp(x.filter.updatedSince!.ceilMs));
    where.push(`p.updated_at >= CAST(${since} AS timestamptz)`);
  }
  // search_text is lower(name sku barcode brand) joined by spaces; a term has no white space, so it
  // can only match inside one field.
  (f.searchTerms ?? []).forEach((_, n) => {
    const term = sql.param((x) => escapeLike(x.filter.searchTerms![n]));
    where.push(`p.search_text LIKE ('%' || lower(${term}) || '%')`);
  });
  if (i.sync.changedSince !== undefined) where.push(`p.change_xact >= ${sql.param((x) => x.sync.changedSince)}`);
  return where;
}

// A text search's or a sync's best plan depends on its values: planned afresh each time, never prepared.
const prepared = (i: ListInput): boolean => i.filter.searchTerms === undefined && i.sync.changedSince === undefined;

/** The position a sync walk hands out: the oldest transaction this statement's snapshot cannot see. */
const wantsHorizon = (i: ListInput): boolean => i.sync.takeHorizon === true || i.sync.caughtUpTo !== undefined;
const horizon = (i: ListInput): string =>
  wantsHorizon(i) ? ', pg_snapshot_xmin(pg_current_snapshot())::text AS horizon' : '';

const COUNT = new Shapes<ListInput>(
  (i) => `${filterShape(i)}|${wantsHorizon(i)}`,
  (i, sql) => {
    if (countsOnly(i)) {
      const where = [scopeCondition(sql, i.scope).on('c'), ...(i.filter.activeOnly ? ['c.is_active'] : [])];
      return sql.build(
        `SELECT COALESCE(SUM(c.n), 0)::int AS total${horizon(i)} FROM product_counts c WHERE ${where.join(' AND ')}`,
      );
    }
    const where = productConditions(i, sql).join('\n   AND ');
    return sql.build(`SELECT count(*)::int AS total${horizon(i)} FROM products p\n WHERE ${where}`, {
      prepared: prepared(i),
    });
  },
);

// The page's ids first (an index-only scan on a covering index for plain lists), then the public
// columns of just those rows; one row more than the page tells whether another page follows.
const PAGE = new Shapes<ListInput>(
  (i) => `${filterShape(i)}|${i.window.afterId !== undefined}`,
  (i, sql) => {
    const where = productConditions(i, sql);
    if (i.window.afterId !== undefined) where.push(`p.id > ${sql.param((x) => x.window.afterId)}`);
    const limit = sql.param((x) => x.window.pageSize + 1);
    const offset = i.window.afterId === undefined ? ` OFFSET ${sql.param((x) => x.window.offset)}` : '';
    return sql.build(
      `SELECT p.id, row_to_json(r)::text AS json
  FROM (SELECT p.id FROM products p
         WHERE ${where.join('\n           AND ')}
         ORDER BY p.id LIMIT ${limit}${offset}) page
  JOIN products p ON p.id = page.id
  ${PUBLIC_PRODUCT}
 ORDER BY p.id`,
      { prepared: prepared(i) },
    );
  },
);

const BY_ID = new Shapes<IdInput>(
  (i) => scopeShape(i.scope),
  (i, sql) => {
    const where = scopeCondition(sql, i.scope).on('p');
    return sql.build(
      `SELECT row_to_json(r)::text AS json FROM products p
  ${PUBLIC_PRODUCT}
 WHERE ${where} AND p.id = ${sql.param((x) => x.id)}`,
    );
  },
);

/** The products of a tenant: every statement of the product routes. */
@Injectable()
export class ProductsRepository {
  constructor(private readonly reader: ScopedReader) {}

  /**
   * One page of the products in scope that match the filter, with the exact total. A sync read
   * (`sync`) may also take the position to hand out; a page of a sync walk is read only from a server
   * that has caught up with the walk's position (else from the primary).
   */
  async list(scope: DataScope, filter: ProductFilter, window: PageWindow, sync: SyncRead = {}): Promise<ListedRows> {
    const input: ListInput = { scope, filter, window, sync };
    return (await this.read(input, 'replica')) ?? (await this.read(input, 'primary'))!;
  }

  /** One product in scope, active or not, as JSON text; undefined when there is none. */
  async findById(scope: DataScope, id: string): Promise<JsonText | undefined> {
    const input: IdInput = { scope, id };
    const rows = await this.reader.read(scope, { lane: 'light' }, (db) =>
      db.rows<{ json: JsonText }, IdInput>(BY_ID.for(input), input),
    );
    return rows[0]?.json;
  }

  /** The page, or null when the server has not caught up with the sync walk's position. */
  private read(input: ListInput, server: 'primary' | 'replica'): Promise<ListedRows | null> {
    return this.reader.read(input.scope, { lane: 'heavy', server }, async (db) => {
      const [{ total, horizon = null }] = await db.rows<{ total: number; horizon?: string }, ListInput>(
        COUNT.for(input),
        input,
      );
      const { caughtUpTo } = input.sync;
      if (server === 'replica' && caughtUpTo !== undefined && BigInt(horizon!) < BigInt(caughtUpTo)) return null;
      const { window } = input;
      if (window.afterId === undefined && window.offset >= total) {
        return { total, rows: [], lastId: null, hasNext: false, horizon };
      }
      const found = await db.rows<{ id: string; json: JsonText }, ListInput>(PAGE.for(input), input);
      const rows = found.slice(0, window.pageSize);
      return {
        total,
        rows: rows.map((r) => r.json),
        lastId: rows.at(-1)?.id ?? null,
        hasNext: found.length > window.pageSize,
        horizon,
      };
    });
  }
}

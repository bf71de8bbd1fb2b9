import { Injectable } from '@nestjs/common';
import { isoMillisSql } from '../../database/sql-format.js';
import type { JsonText } from '../../values/json-text.js';
import { Shapes, type StatementBuilder } from '../../database/statement.js';
import type { PageWindow } from '../../pagination/pagination.js';
import type { ListedRows, SyncRead } from '../../pagination/walk.js';
import { type DataScope, scopeCondition, scopeShape } from '../../tenancy/data-scope.js';
import { ScopedReader } from '../../tenancy/scoped-reader.js';
import { type Instant, toPostgresTimestamp } from '../../values/formats.js';

/** The filters of the stock list (docs/api-rules.md#filters). */
export interface StockFilter {
  readonly activeOnly: boolean;
  readonly productId?: string;
  readonly sku?: string;
  readonly barcode?: string;
  readonly categoryId?: string;
  /** On the row's updatedAt: the later of the product's and its stock level's update times. */
  readonly updatedSince?: Instant;
  readonly lowStockOnly: boolean;
}

type ListInput = {
  readonly scope: DataScope;
  readonly filter: StockFilter;
  readonly window: PageWindow;
  readonly sync: SyncRead;
};

/** availability = low_stock, with exact numeric comparisons, over stock levels `s`. */
const LOW_STOCK = 's.track_stock AND s.quantity > 0 AND s.quantity <= s.reorder_level';

/**
 * One row per product, with or without a stock record, written by PostgreSQL as JSON text in the
 * decided key order (StockRowView): quantities at their scale of 3, availability derived by the
 * contract's rule with exact comparisons, updatedAt the later of the product's and the stock level's.
 * A product without a stock level reads trackStock false, zero quantities and not_tracked. Cost
 * layers and movements are never read. Expects `p` (products) and `s` (its stock level, left-joined).
 */
const PUBLIC_STOCK_ROW = `CROSS JOIN LATERAL (
    SELECT p.id AS "productId", p.store_id AS "storeId", p.sku, p.barcode, p.name AS "productName",
           COALESCE(s.track_stock, false) AS "trackStock", COALESCE(s.quantity, 0.000)::text AS quantity,
           COALESCE(s.low_stock_threshold, 0.000)::text AS "lowStockThreshold",
           COALESCE(s.reorder_level, 0.000)::text AS "reorderLevel",
           CASE WHEN s.track_stock IS NOT TRUE THEN 'not_tracked'
                WHEN s.quantity <= 0 THEN 'out_of_stock'
                WHEN s.quantity <= s.reorder_level THEN 'low_stock'
                ELSE 'in_stock' END AS availability,
           ${isoMillisSql('GREATEST(p.updated_at, s.updated_at)')} AS "updatedAt"
  ) r`;

const productFilters = (f: StockFilter): boolean =>
  [f.productId, f.sku, f.barcode, f.categoryId, f.updatedSince].some((v) => v !== undefined);

/**
 * Low stock alone: the low-stock partial index holds every answer (with the store and the product's
 * isActive), so neither the count nor the ids join the products.
 */
const lowStockAlone = (f: StockFilter): boolean => f.lowStockOnly && !productFilters(f);

const filterShape = (i: ListInput): string =>
  [
    scopeShape(i.scope),
    i.filter.activeOnly,
    i.filter.productId !== undefined,
    i.filter.sku !== undefined,
    i.filter.barcode !== undefined,
    i.filter.categoryId !== undefined,
    i.filter.updatedSince !== undefined,
    i.filter.lowStockOnly,
    i.sync.changedSince !== undefined,
    i.sync.takeHorizon === true || i.sync.caughtUpTo !== undefined,
  ].join();

/** The position a sync walk hands out: the oldest transaction this statement's snapshot cannot see. */
const horizon = (i: ListInput): string =>
  i.sync.takeHorizon === true || i.sync.caughtUpTo !== undefined
    ? ', pg_snapshot_xmin(pg_current_snapshot())::text AS horizon'
    : '';

/** FROM and WHERE of the matching rows, over `s` alone (low stock alone) or products `p` with their `s`. */
function matching(
  i: ListInput,
  sql: StatementBuilder<ListInput>,
  page: boolean,
): { from: string; where: string[]; id: string } {
  const scope = scopeCondition(sql, i.scope);
  const f = i.filter;
  if (i.sync.changedSince !== undefined) {
    // A stock row changes with its product or its stock level: the products changed and the stock
    // levels changed, each found through its own index (a sync read has no other filter). For a page,
    // each side is cut at the page's end before the union, so a page never reads the whole walk.
    const since = sql.param((x) => x.sync.changedSince);
    const after = page && i.window.afterId !== undefined ? sql.param((x) => x.window.afterId) : null;
    const limit = page ? sql.param((x) => x.window.pageSize + 1) : null;
    const side = (alias: string, table: string, id: string): string =>
      `(SELECT ${id} AS id FROM ${table} ${alias} WHERE ${scope.on(alias)} AND ${alias}.change_xact >= ${since}` +
      (after === null ? '' : ` AND ${id} > ${after}`) +
      (limit === null ? '' : ` ORDER BY ${id} LIMIT ${limit}`) +
      ')';
    const from = `(${side('p', 'products', 'p.id')}\n         UNION ${side('s', 'stock_levels', 's.product_id')}) changed`;
    return { from, where: [], id: 'changed.id' };
  }
  if (lowStockAlone(f)) {
    const where = [scope.on('s'), `(${LOW_STOCK})`, ...(f.activeOnly ? ['s.product_is_active'] : [])];
    return { from: 'stock_levels s', where, id: 's.product_id' };
  }
  const where = [scope.on('p')];
  if (f.activeOnly) where.push('p.is_active');
  if (f.productId !== undefined) where.push(`p.id = ${sql.param((x) => x.filter.productId)}`);
  if (f.sku !== undefined) where.push(`p.sku = ${sql.param((x) => x.filter.sku)}`);
  if (f.barcode !== undefined) where.push(`p.barcode = ${sql.param((x) => x.filter.barcode)}`);
  if (f.categoryId !== undefined) where.push(`p.category_id = ${sql.param((x) => x.filter.categoryId)}`);
  if (f.updatedSince !== undefined) {
    const since = sql.param((x) => toPostgresTimestamp(x.filter.updatedSince!.ceilMs));
    where.push(`GREATEST(p.updated_at, s.updated_at) >= CAST(${since} AS timestamptz)`);
  }
  if (f.lowStockOnly) where.push(`(${LOW_STOCK})`);
  return { from: 'products p LEFT JOIN stock_levels s ON s.product_id = p.id', where, id: 'p.id' };
}

// A sync's best plan depends on its position: planned afresh each time, never prepared.
const prepared = (i: ListInput): boolean => i.sync.changedSince === undefined;
const whereClause = (where: string[], indent: string): string =>
  where.length === 0 ? '' : `\n${indent}WHERE ${where.join(`\n${indent}  AND `)}`;

const COUNT = new Shapes<ListInput>(filterShape, (i, sql) => {
  // Every product in scope has exactly one row: without row filters the total is the product count,
  // read from product_counts (kept exact by triggers).
  if (!productFilters(i.filter) && !i.filter.lowStockOnly && i.sync.changedSince === undefined) {
    const where = [scopeCondition(sql, i.scope).on('c'), ...(i.filter.activeOnly ? ['c.is_active'] : [])];
    return sql.build(
      `SELECT COALESCE(SUM(c.n), 0)::int AS total${horizon(i)} FROM product_counts c WHERE ${where.join(' AND ')}`,
    );
  }
  const { from, where } = matching(i, sql, false);
  return sql.build(`SELECT count(*)::int AS total${horizon(i)} FROM ${from}${whereClause(where, ' ')}`, {
    prepared: prepared(i),
  });
});

// The page's product ids first (an index scan), then the rows of just those products; one row more
// than the page tells whether another page follows.
const PAGE = new Shapes<ListInput>(
  (i) => `${filterShape(i)}|${i.window.afterId !== undefined}`,
  (i, sql) => {
    const { from, where, id } = matching(i, sql, true);
    if (i.window.afterId !== undefined && i.sync.changedSince === undefined) {
      where.push(`${id} > ${sql.param((x) => x.window.afterId)}`);
    }
    const limit = sql.param((x) => x.window.pageSize + 1);
    const offset = i.window.afterId === undefined ? ` OFFSET ${sql.param((x) => x.window.offset)}` : '';
    return sql.build(
      `SELECT p.id, row_to_json(r)::text AS json
  FROM (SELECT ${id} AS id FROM ${from}${whereClause(where, '         ')}
         ORDER BY ${id} LIMIT ${limit}${offset}) page
  JOIN products p ON p.id = page.id
  LEFT JOIN stock_levels s ON s.product_id = p.id
  ${PUBLIC_STOCK_ROW}
 ORDER BY p.id`,
      { prepared: prepared(i) },
    );
  },
);

/** The stock rows of a tenant's products: every statement of the stock route. */
@Injectable()
export class StockRepository {
  constructor(private readonly reader: ScopedReader) {}

  /**
   * One page of the stock rows in scope that match the filter (product id order), with the exact
   * total. A sync read (`sync`) may also take the position to hand out; a page of a sync walk is read
   * only from a server that has caught up with the walk's position (else from the primary).
   */
  async list(scope: DataScope, filter: StockFilter, window: PageWindow, sync: SyncRead = {}): Promise<ListedRows> {
    const input: ListInput = { scope, filter, window, sync };
    return (await this.read(input, 'replica')) ?? (await this.read(input, 'primary'))!;
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

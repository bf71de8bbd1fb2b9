import { isoMillisSql } from '../database/sql-format.js';
import { Shapes, type Statement, type StatementBuilder } from '../database/statement.js';
import { CursorParam, IntegerParam, RemovalsPositionParam, StoreIdParam } from '../params/params.js';
import { type DataScope, type ScopeCondition, scoped, scopeShape } from '../tenancy/data-scope.js';
import type { SyncedListDefinition } from './list-definition.js';
import { CURSOR_PARAM, DEFAULT_PAGE_SIZE, PAGE_SIZE_PARAM } from './page.js';
import { SAMPLE_SYNC_POSITION } from './samples.js';
import { SYNC_POSITION_PATTERN_TEXT } from './sync-position.js';

/**
 * The removals feed of a synced list (docs/sync.md#removals): the rows that left the caller's view
 * since a position. A product leaves a view when it is deleted, moves to a store outside the view, or
 * its store leaves the view (the client's allow-list narrowed, or the store deleted). The feed lists
 * each such product once (its latest removal), unless it is in the view again now: a row that left
 * and came back reads as present (the changes feed brings it).
 *
 * Two sources, each bound like any read of tenant rows (scope-check.ts):
 * - `sync_removals`: products that left a store of the view (bound to the scope's stores);
 * - `client_removals`: what left this client's view with a store (bound to the tenant and the client;
 *   with `storeId`, to that store).
 */

export class RemovalsQuery {
  @StoreIdParam()
  storeId?: string;

  @IntegerParam(PAGE_SIZE_PARAM)
  pageSize: number = DEFAULT_PAGE_SIZE;

  @CursorParam(CURSOR_PARAM)
  cursor?: string;

  @RemovalsPositionParam({
    pattern: SYNC_POSITION_PATTERN_TEXT,
    example: SAMPLE_SYNC_POSITION,
    description:
      "Required. The sync position your copy holds: the one the round's changes walk started from (the same " +
      '`changedSince`). Lists every row that left your view since. Run it after the changes walk of the round, ' +
      "then keep the changes walk's new `Sync-Position` (this walk's `Sync-Position` repeats the one given).",
  })
  changedSince!: string;
}

/** One read of a removals feed. */
export interface RemovalsRead {
  readonly scope: DataScope;
  /** The walk's `storeId`, if any: what left this client's view with other stores stays out. */
  readonly storeId?: string;
  readonly since: string;
  readonly pageSize: number;
  readonly afterId?: string;
}

type Sql = StatementBuilder<RemovalsRead>;

/** The statements of one removals feed, written once per shape (the scope's, a storeId, a cursor). */
export class RemovalStatements {
  private readonly pages: Shapes<RemovalsRead>;
  private readonly counts: Shapes<RemovalsRead>;

  constructor(readonly definition: SyncedListDefinition) {
    const shape = (i: RemovalsRead): string =>
      `${scopeShape(i.scope)}|${i.storeId !== undefined}|${i.afterId !== undefined}`;
    this.pages = new Shapes(
      shape,
      scoped((i, sql, scope) => this.write(i, sql, scope, true)),
    );
    this.counts = new Shapes(
      shape,
      scoped((i, sql, scope) => this.write(i, sql, scope, false)),
    );
  }

  page(input: RemovalsRead): Statement<RemovalsRead> {
    return this.pages.for(input);
  }

  count(input: RemovalsRead): Statement<RemovalsRead> {
    return this.counts.for({ ...input, afterId: undefined });
  }

  /**
   * The removed products since the position, each once (its latest removal), that are not in the view
   * now; a page of them after the cursor's id, or their count.
   */
  private write(i: RemovalsRead, sql: Sql, scope: ScopeCondition, page: boolean): Statement<RemovalsRead> {
    const since = sql.param((x) => x.since);
    const client = sql.param((x) => x.scope.clientId);
    const store = i.storeId === undefined ? null : sql.param((x) => x.storeId);
    const after = page && i.afterId !== undefined ? sql.param((x) => x.afterId) : null;
    const limit = page ? sql.param((x) => x.pageSize + 1) : null;
    const afterId = (column: string): string => (after === null ? '' : ` AND ${column} > ${after}`);
    const removed = `SELECT DISTINCT ON (x.id) x.id, x.store_id, x.removed_at FROM (
           SELECT s.product_id AS id, s.store_id, s.removed_at, s.removed_xact FROM sync_removals s
            WHERE ${scope.on('sync_removals', 's')} AND s.removed_xact >= ${since}${afterId('s.product_id')}
           UNION ALL
           SELECT c.product_id, c.former_store_id, c.removed_at, c.removed_xact FROM client_removals c
            WHERE ${scope.on('client_removals', 'c')} AND c.client_id = ${client} AND c.removed_xact >= ${since}${
              store === null ? '' : ` AND c.former_store_id = ${store}`
            }${afterId('c.product_id')}) x
         ORDER BY x.id, x.removed_xact DESC`;
    const gone = `NOT EXISTS (SELECT 1 FROM products p WHERE ${scope.on('products', 'p')} AND p.id = r.id)`;
    if (!page) return sql.build(`SELECT count(*)::int AS total FROM (${removed}) r WHERE ${gone}`);
    const removedAt = isoMillisSql('r.removed_at');
    const json = `json_build_object('${this.definition.sync.removalId}', r.id, 'storeId', r.store_id, 'removedAt', ${removedAt})::text`;
    return sql.build(`SELECT r.id, ${json} AS json FROM (${removed}) r WHERE ${gone} ORDER BY r.id LIMIT ${limit}`);
  }
}

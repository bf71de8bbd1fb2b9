import type { Cost } from '../admission/fair-scheduler.js';
import { Shapes, type Statement, type StatementBuilder } from '../database/statement.js';
import { tenantTables } from '../schema/tenant-tables.js';
import { type DataScope, type ScopeCondition, scoped, scopeShape } from '../tenancy/data-scope.js';
import type {
  FilterDefinition,
  FilterValues,
  JoinRef,
  ListDefinition,
  ListSync,
  ParentInput,
  TableRef,
  Variant,
} from './list-definition.js';
import { type JsonColumn, objectJson } from './json-columns.js';
import { storedRowJson } from './stored-row.js';

/** Which rows of a list a page holds: skip `offset` rows, or start after the id `afterId` (a cursor). */
export interface PageWindow {
  readonly pageSize: number;
  readonly offset: number;
  readonly afterId?: string;
}

/** What a sync walk needs from the read (see the ChangeMarkers migration). */
export interface SyncRead {
  /** Only rows changed by this transaction or a later one. */
  readonly changedSince?: string;
  /** This page begins a sync walk: take the position to hand out, in the snapshot of its reads. */
  readonly takeHorizon?: boolean;
  /** The walk began at this position: a server that has not caught up with it must not answer. */
  readonly caughtUpTo?: string;
  /** With changedSince: the ids of each parent input changed since (see ListStatements.parents). */
  readonly parents?: readonly (readonly string[])[];
}

/** One read of a list: the scope, the filters' values, the page and the sync. */
export interface ListRead {
  readonly scope: DataScope;
  readonly filters: FilterValues;
  readonly window: PageWindow;
  readonly sync: SyncRead;
}

type Sql = StatementBuilder<ListRead>;

/**
 * What any list row's visibility depends on: the stores that came into the API client's view, and
 * when (see the SyncInputs migration). Every list of a store's rows has this input, through the store
 * column its table declares (@TenantRows); rows of the whole tenant have none.
 */
const viewInputs = (d: ListDefinition): ParentInput[] => {
  const store = tenantTables().get(d.from.table)?.store ?? null;
  if (store === null) return [];
  return [
    {
      kind: 'parent',
      from: { table: 'api_client_store_grants', alias: 'g' },
      key: 'g.store_id',
      via: `${d.from.alias}.${store}`,
      marker: 'granted_xact',
      client: 'g.client_id',
    },
  ];
};

/** Up to this many changed parents, each is a side of its own (an ordered index scan); more share one. */
const SIDES_PER_INPUT = 8;
const partsOf = (ids: readonly string[] | undefined): number => Math.min(ids?.length ?? 0, SIDES_PER_INPUT + 1);

type Scope = ScopeCondition;
const table = (ref: TableRef): string => `${ref.table} ${ref.alias}`;
/** A join, bound to the scope (in its ON: on an outer join's nullable side, only ON can bind it). */
const join = (ref: JoinRef, scope: Scope): string =>
  `${ref.kind} ${table(ref)} ON ${ref.on} AND ${scope.on(ref.table, ref.alias)}`;
const whereClause = (where: readonly string[], indent: string): string =>
  where.length === 0 ? '' : `\n${indent}WHERE ${where.join(`\n${indent}  AND `)}`;
const wantsHorizon = (i: ListRead): boolean => i.sync.takeHorizon === true || i.sync.caughtUpTo !== undefined;
/** The position a sync walk hands out: the oldest transaction this statement's snapshot cannot see. */
const horizon = (i: ListRead): string =>
  wantsHorizon(i) ? ', pg_snapshot_xmin(pg_current_snapshot())::text AS horizon' : '';

/** The ids a read selects: from what, on which conditions, by which key. */
interface Source {
  readonly from: string;
  readonly where: string[];
  readonly key: string;
  /** The cursor's condition is already inside `from` (the sides of a sync). */
  readonly paged: boolean;
}

/**
 * Every statement of one list, written from its definition: the tenant and store conditions come
 * from the scope (the definition cannot leave them out), and the statement-cache key is derived from
 * the definition's filters (a filter cannot be missing from it).
 */
export class ListStatements {
  private readonly names: readonly string[];
  private readonly counts: Shapes<ListRead>;
  private readonly pages: Shapes<ListRead>;
  private readonly wholes: Shapes<ListRead>;
  private readonly changedParents: Shapes<ListRead>;
  /** Every input read through a column of the list's table: the definition's and the client's view. */
  readonly parentInputs: readonly ParentInput[];

  constructor(readonly definition: ListDefinition) {
    this.names = Object.keys(definition.filters);
    this.parentInputs = [
      ...(definition.sync?.inputs ?? []).filter((input): input is ParentInput => input.kind === 'parent'),
      ...(definition.sync === undefined ? [] : viewInputs(definition)),
    ];
    this.changedParents = new Shapes<ListRead>(
      (i) => scopeShape(i.scope),
      scoped((i, sql, scope) => this.writeChangedParents(i, sql, scope)),
    );
    this.counts = new Shapes<ListRead>(
      (i) => this.shapeOf(i),
      scoped((i, sql, scope) => this.writeCount(i, sql, scope)),
    );
    this.pages = new Shapes<ListRead>(
      (i) => `${this.shapeOf(i)}|${i.window.afterId !== undefined}`,
      scoped((i, sql, scope) => this.writePage(i, sql, scope)),
    );
    // The order is picked by a choice filter, whose shape is its value: shapeOf holds it.
    this.wholes = new Shapes<ListRead>(
      (i) => this.shapeOf(i),
      scoped((i, sql, scope) => this.writeAll(i, sql, scope)),
    );
  }

  /**
   * With changedSince: the ids of each parent input (in `parentInputs` order) changed since, in one
   * row of arrays. Parents are few (VAT rates, stores), each found through its own marker's index.
   */
  parents(input: ListRead): Statement<ListRead> {
    return this.changedParents.for(input);
  }

  /** The total of the rows that match, and the sync horizon when the read asks for it. */
  count(input: ListRead): Statement<ListRead> {
    return this.counts.for(input);
  }

  /** The page's ids (one more than the page: it tells whether another follows), then their rows as JSON. */
  page(input: ListRead): Statement<ListRead> {
    return this.pages.for(input);
  }

  /** Every row that matches, as JSON, in the list's order (a list read whole: no page, no sync). */
  all(input: ListRead): Statement<ListRead> {
    return this.wholes.for(input);
  }

  /**
   * What a read of a page costs (docs/rate-limits.md#admission-by-cost): cheap when its total is
   * summed from the maintained counts and its ids are read along the key's index from the start or
   * from a cursor, a bounded number of rows whatever the table holds; expensive otherwise (a counted
   * filter or search, a deep page number, a sync round).
   */
  cost(input: ListRead): Cost {
    return this.fastCount(input) && (input.window.afterId !== undefined || input.window.offset === 0)
      ? 'cheap'
      : 'expensive';
  }

  /** A filter's shape in a read (a falsy shape is no filter). */
  shapeOfFilter(name: string, filters: FilterValues): string | number | boolean {
    const value = filters[name];
    if (value === undefined) return false;
    const filter = this.filter(name);
    return filter.shape === undefined ? true : filter.shape(value as never);
  }

  /** The filters in use. */
  active(filters: FilterValues): string[] {
    return this.names.filter((name) => Boolean(this.shapeOfFilter(name, filters)));
  }

  /** What a statement's text depends on: the scope's shape, each filter's shape and the sync. */
  private shapeOf(i: ListRead): string {
    return JSON.stringify([
      scopeShape(i.scope),
      this.names.map((name) => this.shapeOfFilter(name, i.filters)),
      i.sync.changedSince !== undefined,
      wantsHorizon(i),
      this.parentInputs.map((_, n) => partsOf(i.sync.parents?.[n])),
    ]);
  }

  private filter(name: string): FilterDefinition<unknown> {
    return this.definition.filters[name];
  }

  private prepared(i: ListRead): boolean {
    return i.sync.changedSince === undefined && this.active(i.filters).every((n) => !this.filter(n).planEachTime);
  }

  /** The conditions of the filters in use, in the definition's order. */
  private conditions(i: ListRead, sql: Sql): string[] {
    return this.active(i.filters).flatMap((name) => {
      const bind = (get?: (value: unknown) => unknown): string =>
        sql.param((x) => (get === undefined ? x.filters[name] : get(x.filters[name])));
      const written = this.filter(name).where(bind, i.filters[name]);
      return typeof written === 'string' ? [written] : [...written];
    });
  }

  /** The special case that serves the filters in use, if any. */
  private variant(i: ListRead): Variant<unknown> | undefined {
    if (i.sync.changedSince !== undefined) return undefined;
    const active = this.active(i.filters);
    return this.definition.variants?.find(
      (v) =>
        active.includes(v.when) && active.every((name) => (v.filters as Record<string, string>)[name] !== undefined),
    );
  }

  private source(i: ListRead, sql: Sql, scope: Scope, page: boolean): Source {
    const d = this.definition;
    const variant = this.variant(i);
    if (variant !== undefined) {
      const active = this.active(i.filters);
      const conditions = Object.entries(variant.filters as Record<string, string>).filter(([name]) =>
        active.includes(name),
      );
      const where = [scope.on(variant.from.table, variant.from.alias), ...conditions.map(([, condition]) => condition)];
      return { from: table(variant.from), where, key: variant.key, paged: false };
    }
    if (i.sync.changedSince !== undefined) return this.changed(i, sql, scope, page);
    const where = [scope.on(d.from.table, d.from.alias), ...(d.where ?? []), ...this.conditions(i, sql)];
    const from = [table(d.from), ...(d.filterJoins ?? []).map((ref) => join(ref, scope))].join(' ');
    return { from, where, key: d.key, paged: false };
  }

  /**
   * The rows changed since a position: those whose own row changed, whose rows in another table
   * changed, or whose parents changed, each side found through its own index (a sync read has no
   * other filter). For a page, each side is cut at the page's end before the union, so that a page
   * never reads the whole walk. A list that reads nothing else has one side, a plain condition.
   */
  private changed(i: ListRead, sql: Sql, scope: Scope, page: boolean): Source {
    const d = { ...this.definition, sync: this.sync() };
    const since = sql.param((x) => x.sync.changedSince);
    const rowInputs = d.sync.inputs.filter((input) => input.kind === 'rows');
    const parents = this.parentInputs.map((_, n) => partsOf(i.sync.parents?.[n]));
    if (rowInputs.length === 0 && parents.every((count) => count === 0)) {
      const where = [scope.on(d.from.table, d.from.alias), `${d.from.alias}.${d.sync.marker} >= ${since}`];
      return { from: table(d.from), where, key: d.key, paged: false };
    }
    const after = page && i.window.afterId !== undefined ? sql.param((x) => x.window.afterId) : null;
    const limit = page ? sql.param((x) => x.window.pageSize + 1) : null;
    const side = (from: TableRef, key: string, condition: string): string =>
      `(SELECT ${key} AS id FROM ${table(from)} WHERE ${scope.on(from.table, from.alias)} AND ${condition}` +
      (after === null ? '' : ` AND ${key} > ${after}`) +
      (limit === null ? '' : ` ORDER BY ${key} LIMIT ${limit}`) +
      ')';
    const sides = [
      side(d.from, d.key, `${d.from.alias}.${d.sync.marker} >= ${since}`),
      ...rowInputs.map((input) => side(input.from, input.key, `${input.from.alias}.${d.sync.marker} >= ${since}`)),
      ...this.parentInputs.flatMap((input, n) => {
        const count = parents[n];
        if (count === 0) return [];
        if (count > SIDES_PER_INPUT) {
          return [side(d.from, d.key, `${input.via} = ANY(${sql.param((x) => x.sync.parents![n])})`)];
        }
        return Array.from({ length: count }, (_, k) =>
          side(d.from, d.key, `${input.via} = ${sql.param((x) => x.sync.parents![n][k])}`),
        );
      }),
    ];
    return { from: `(${sides.join('\n         UNION ')}) changed`, where: [], key: 'changed.id', paged: true };
  }

  private writeChangedParents(i: ListRead, sql: Sql, scope: Scope): Statement<ListRead> {
    const since = sql.param((x) => x.sync.changedSince);
    const client = sql.param((x) => x.scope.clientId);
    const arrays = this.parentInputs.map((input, n) => {
      const marker = input.marker ?? this.sync().marker;
      const where = [
        scope.on(input.from.table, input.from.alias),
        ...(input.client === undefined ? [] : [`${input.client} = ${client}`]),
        `${input.from.alias}.${marker} >= ${since}`,
      ];
      return `ARRAY(SELECT ${input.key} FROM ${table(input.from)} WHERE ${where.join(' AND ')} ORDER BY ${input.key})::text[] AS p${n}`;
    });
    return sql.build(`SELECT ${arrays.join(',\n       ')}`, { prepared: false });
  }

  /** The definition's sync: a read of a list without one never asks for a round. */
  private sync(): ListSync {
    if (this.definition.sync === undefined) throw new Error(`list ${this.definition.name} cannot be synced`);
    return this.definition.sync;
  }

  /** The maintained counts serve the read's total: no sync round, and only filters they keep. */
  private fastCount(i: ListRead): boolean {
    const fast = this.definition.count;
    return (
      fast !== undefined &&
      i.sync.changedSince === undefined &&
      this.active(i.filters).every((n) => (fast.filters as Record<string, string>)[n] !== undefined)
    );
  }

  private writeCount(i: ListRead, sql: Sql, scope: Scope): Statement<ListRead> {
    const fast = this.definition.count;
    const active = this.active(i.filters);
    if (fast !== undefined && this.fastCount(i)) {
      const where = [
        scope.on(fast.from.table, fast.from.alias),
        ...active.map((n) => (fast.filters as Record<string, string>)[n]),
      ];
      return sql.build(
        `SELECT COALESCE(SUM(${fast.sum}), 0)::int AS total${horizon(i)} FROM ${table(fast.from)} WHERE ${where.join(' AND ')}`,
      );
    }
    const { from, where } = this.source(i, sql, scope, false);
    return sql.build(`SELECT count(*)::int AS total${horizon(i)} FROM ${from}${whereClause(where, ' ')}`, {
      prepared: this.prepared(i),
    });
  }

  private writeAll(i: ListRead, sql: Sql, scope: Scope): Statement<ListRead> {
    const d = this.definition;
    const { from, where } = this.source(i, sql, scope, false);
    const order = d.order === undefined ? d.key : d.order.orders[i.filters[d.order.by] as string];
    if (order === undefined) throw new Error(`list ${d.name}: no order for ${String(i.filters[d.order!.by])}`);
    return sql.build(
      `SELECT ${rowJson(d)} AS json
  FROM ${from}${rowJoins(d, scope)}${whereClause(where, ' ')}
 ORDER BY ${order}`,
      { prepared: this.prepared(i) },
    );
  }

  private writePage(i: ListRead, sql: Sql, scope: Scope): Statement<ListRead> {
    const d = this.definition;
    const { from, where, key, paged } = this.source(i, sql, scope, true);
    if (i.window.afterId !== undefined && !paged) where.push(`${key} > ${sql.param((x) => x.window.afterId)}`);
    const limit = sql.param((x) => x.window.pageSize + 1);
    const offset = i.window.afterId === undefined ? ` OFFSET ${sql.param((x) => x.window.offset)}` : '';
    return sql.build(
      `SELECT ${d.key}, ${rowJson(d)} AS json
  FROM (SELECT ${key} AS id FROM ${from}${whereClause(where, '         ')}
         ORDER BY ${key} LIMIT ${limit}${offset}) page
  JOIN ${table(d.from)} ON ${d.key} = page.id${rowJoins(d, scope)}
 WHERE ${scope.on(d.from.table, d.from.alias)}
 ORDER BY ${d.key}`,
      { prepared: this.prepared(i) },
    );
  }
}

/** The joins the row reads, each on its own line. */
export function rowJoins(d: ListDefinition, scope: Scope): string {
  return d.row.joins.map((ref) => `\n  ${join(ref, scope)}`).join('');
}

/** The SQL of the row's JSON text: its keys and columns, in the view's order. */
export const rowJson = (d: ListDefinition): string =>
  d.row.stored === undefined ? objectJson(d.row.columns as Record<string, JsonColumn<unknown>>) : storedRowJson(d);

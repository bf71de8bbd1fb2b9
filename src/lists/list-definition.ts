import type { Instant } from '../values/formats.js';
import { toPostgresTimestamp } from '../values/formats.js';

/**
 * The declaration of a paginated list: what it reads, how it filters, how its row is written and what
 * a sync of it depends on, said once. ListEngine runs it (src/lists/list-engine.ts) and
 * list-statements.ts writes its SQL: the tenant and store conditions, the statement-cache key, the
 * cursor binding and the rule "a sync walk has no filter" are all derived from it, never kept beside it.
 */

/** A table the engine reads, as `table alias`; the engine writes its tenant (and store) condition. */
export interface TableRef {
  readonly table: string;
  readonly alias: string;
}

/** A join of a table the engine scopes: `LEFT JOIN table alias ON on`. */
export interface JoinRef extends TableRef {
  readonly kind: 'JOIN' | 'LEFT JOIN';
  readonly on: string;
}

/** Binds a value of the request and returns its placeholder (`$n`); `get` maps the filter's value. */
export type Bind<V> = (get?: (value: V) => unknown) => string;

/**
 * One filter: a query parameter and the conditions it adds. `shape` is what the statement's text
 * depends on (presence by default; a flag's value; a search's number of terms); `where` writes the
 * conditions of a shape, binding values through `bind` (the statement is written once per shape).
 */
export interface FilterDefinition<V = unknown> {
  /** The filter's value from the parameter's (undefined: not given). */
  value?(given: unknown): V | undefined;
  /** What the text depends on; a falsy shape is no filter at all. */
  shape?(value: V): string | number | boolean;
  where(bind: Bind<V>, value: V): string | readonly string[];
  /** The index that serves the filter alone (docs and tests read it). */
  readonly index?: string;
  /** Its best plan depends on the value (a LIKE pattern): planned afresh each time, never prepared. */
  readonly planEachTime?: boolean;
}

// Each filter has a value type of its own; the engine treats them alike.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Filters = Readonly<Record<string, FilterDefinition<any>>>;

/**
 * A count kept by triggers: when every filter in use is one the counts table has, the total is summed
 * from it instead of counted.
 */
export interface FastCount {
  readonly from: TableRef;
  readonly sum: string;
  /** The condition each filter the counts table serves adds (a flag's condition when on). */
  readonly filters: Readonly<Record<string, string>>;
}

/**
 * A special case: when only these filters are in use (and no sync), the ids are read from another
 * table, with conditions of its own, in the declared order.
 */
export interface Variant {
  /** The filter that must be in use. */
  readonly when: string;
  readonly from: TableRef;
  readonly key: string;
  readonly filters: Readonly<Record<string, string>>;
}

/**
 * What a row's JSON reads besides the list's own table, so that a change to it reaches the next
 * incremental round. A `rows` input has one row per list row, with the list's key
 * (`stock_levels.product_id`); a `parent` input is read through a column of the list's table (`via`,
 * `products.vat_rate_id` for `vat_rates.id`): a round brings the rows of every parent changed since.
 * Each is marked by `marker` (the definition's, unless it says otherwise).
 */
export type SyncInput = RowsInput | ParentInput;

export interface RowsInput {
  readonly kind: 'rows';
  readonly from: TableRef;
  readonly key: string;
}

export interface ParentInput {
  readonly kind: 'parent';
  readonly from: TableRef;
  /** The parent's id, matched by `via` on the list's table. */
  readonly key: string;
  readonly via: string;
  readonly marker?: string;
  /** A column that must equal the scope's API client (a client's own records). */
  readonly client?: string;
}

export interface ListDefinition {
  /** Names the list in cursors and positions. */
  readonly name: string;
  /** The list's rows: one per row of this table in scope. */
  readonly from: TableRef;
  /** The order and cursor key. */
  readonly key: string;
  /** Joins the filters need beside `from` (the row's own joins are in `row`). */
  readonly filterJoins?: readonly JoinRef[];
  readonly filters: Filters;
  readonly count?: FastCount;
  readonly variants?: readonly Variant[];
  /**
   * The public row, the one place where redaction lives: the joins it reads and the select list, in
   * the contract's key order, that PostgreSQL writes as JSON (`row_to_json`).
   */
  readonly row: { readonly joins: readonly JoinRef[]; readonly select: string };
  /** The change marker of `from` and what else the row reads (see SyncInput). */
  readonly sync: { readonly marker: string; readonly inputs: readonly SyncInput[] };
}

/** The values of a list's filters in a request: by filter name, undefined when not given. */
export type FilterValues = Readonly<Record<string, unknown>>;

/** An exact match on a column. */
export const equals = (column: string, index?: string): FilterDefinition<string> => ({
  where: (bind) => `${column} = ${bind()}`,
  index,
});

/** A condition that applies when the flag is true; false is no filter. */
export const flag = (condition: string, index?: string): FilterDefinition<boolean> => ({
  value: (given) => given === true,
  shape: (on) => on,
  where: () => condition,
  index,
});

/** At or after an instant (the stored times have millisecond precision: the instant is rounded up). */
export const since = (expression: string, index?: string): FilterDefinition<Instant> => ({
  where: (bind) => `${expression} >= CAST(${bind((v) => toPostgresTimestamp(v.ceilMs))} AS timestamptz)`,
  index,
});

/** Every term a condition of its own; the text depends on the number of terms. */
export const terms = (
  split: (given: string) => readonly string[],
  condition: (placeholder: string) => string,
  pattern: (term: string) => string,
  index?: string,
): FilterDefinition<readonly string[]> => ({
  value: (given) => (given === undefined ? undefined : split(given as string)),
  shape: (list) => list.length,
  where: (bind, list) => list.map((_, n) => condition(bind((v) => pattern(v[n])))),
  index,
  planEachTime: true,
});

export const defineList = <D extends ListDefinition>(definition: D): D => definition;

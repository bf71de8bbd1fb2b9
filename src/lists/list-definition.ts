import type { Instant } from '../values/formats.js';
import { parseRfc3339DateTime, toPostgresTimestamp } from '../values/formats.js';
import type { JsonColumns } from './json-columns.js';

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
 * One filter: a query parameter (its value `G`, as the query DTO holds it) and the conditions it adds.
 * `value` maps the parameter to the filter's value `V` (a search's terms); `shape` is what the
 * statement's text depends on (presence by default; a flag's value; a search's number of terms);
 * `where` writes the conditions of a shape, binding values through `bind` (the statement is written
 * once per shape).
 */
export interface FilterDefinition<V = unknown, G = V> {
  /** The filter's value from the parameter's (undefined: not given). */
  readonly value?: (given: G | undefined) => V | undefined;
  /** What the text depends on; a falsy shape is no filter at all. */
  readonly shape?: (value: V) => string | number | boolean;
  readonly where: (bind: Bind<V>, value: V) => string | readonly string[];
  /** The index that serves the filter alone (docs and tests read it). */
  readonly index?: string;
  /** The values of a choice (its shape is its value): what the list's `order` may depend on. */
  readonly choices?: readonly string[];
  /** Its best plan depends on the value (a LIKE pattern): planned afresh each time, never prepared. */
  readonly planEachTime?: boolean;
}

/** The parameters every list has (ListQuery): the page, the cursor, the sync position, the store. */
type PageKeys = 'page' | 'pageSize' | 'cursor' | 'changedSince' | 'storeId';

/** The filter parameters of a query DTO: every property but the page's and the store's. */
export type FilterKeys<Q> = Exclude<keyof Q, PageKeys> & string;

/**
 * A list's filters, keyed by its query DTO's properties: every filter parameter has one (a parameter
 * the engine would ignore does not compile), none names a property the DTO does not have (a rename
 * does not compile), and each takes the parameter's type.
 */
export type Filters<Q> = {
  // Each filter has a value type of its own; the engine treats them alike.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly [K in FilterKeys<Q>]-?: FilterDefinition<any, Exclude<Q[K], undefined>>;
};

/**
 * A count kept by triggers: when every filter in use is one the counts table has, the total is summed
 * from it instead of counted.
 */
export interface FastCount<Q> {
  readonly from: TableRef;
  readonly sum: string;
  /** The condition each filter the counts table serves adds (a flag's condition when on). */
  readonly filters: Partial<Record<FilterKeys<Q>, string>>;
}

/**
 * A special case: when only these filters are in use (and no sync), the ids are read from another
 * table, with conditions of its own, in the declared order.
 */
export interface Variant<Q> {
  /** The filter that must be in use. */
  readonly when: FilterKeys<Q>;
  readonly from: TableRef;
  readonly key: string;
  readonly filters: Partial<Record<FilterKeys<Q>, string>>;
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

/**
 * The public row's columns: every key of the view, in the view's key order, each with the SQL of its
 * value and its JSON writer (src/lists/json-columns.ts). The row's JSON is written from it, so the row
 * and its view cannot name different keys; defineList checks the order against the view's.
 */
export type Columns<V> = JsonColumns<V>;

/**
 * The public row of a list: the joins it reads and its columns. Written beside its view class (as
 * `satisfies ListRow<View>`), so that a column's property, example value and SQL are one edit.
 */
export interface ListRow<V> {
  readonly joins: readonly JoinRef[];
  readonly columns: Columns<V>;
  /**
   * The prefix of the generated columns that store the row's JSON on its tables, written when a row
   * is written (src/lists/stored-row.ts); without it every read writes the whole row.
   */
  readonly stored?: string;
}

/**
 * A read the committed SQL shows (src/queries/, `npm run sql`): the scope (every store of the test
 * data's tenant, one store, or a list of stores), the filters as the query DTO holds them, the page
 * and the sync; or one row by `id`. Every filter must be in use in one of them (a test checks), and
 * an example that states `answers` is a test of its own (test/queries.e2e-spec.ts runs it on the
 * test data): a filter's test is written where the filter is, in words its author chose, not
 * derived from its SQL.
 */
export interface ListExample<Q> {
  readonly description: string;
  readonly stores: 'all' | 'one' | 'list';
  readonly filters?: Partial<Pick<Q, FilterKeys<Q>>>;
  /** The page: 50 rows from the first by default. */
  readonly window?: { readonly pageSize: number; readonly offset: number; readonly afterId?: string };
  readonly sync?: {
    readonly changedSince?: string;
    readonly takeHorizon?: boolean;
    readonly caughtUpTo?: string;
  };
  /** One row by id (ListEngine.one) instead of a page. */
  readonly id?: string;
  /** Every row, not a page (ListEngine.all). */
  readonly all?: boolean;
  /**
   * The ids of the rows it answers on the test data (test/support/dataset.ts), in order: each row's
   * first key (`id`, or the stock row's `productId`).
   */
  readonly answers?: readonly string[];
}

/** The change marker of a list's table and what else its row reads (see SyncInput). */
export interface ListSync {
  readonly marker: string;
  readonly inputs: readonly SyncInput[];
  /** How the rows of the list's removals feed (src/lists/removals.ts) name a product: as the list's row does. */
  readonly removalId: 'id' | 'productId';
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface ListDefinition<Q = any, V = any> {
  /** Names the list in cursors and positions, and its committed SQL (`src/queries/<name>.repository.sql`). */
  readonly name: string;
  /** The list's rows: one per row of this table in scope. */
  readonly from: TableRef;
  /** The order and cursor key. */
  readonly key: string;
  /** Joins the filters need beside `from` (the row's own joins are in `row`). */
  readonly filterJoins?: readonly JoinRef[];
  readonly filters: Filters<Q>;
  /** Conditions every read has, whatever the filters (what a list never shows: archived categories). */
  readonly where?: readonly string[];
  /**
   * The order of a list read whole (ListEngine.all), when a choice filter picks it (categories'
   * `sortBy`); `key` otherwise. Pages are always in `key` order.
   */
  readonly order?: { readonly by: FilterKeys<Q>; readonly orders: Readonly<Record<string, string>> };
  readonly count?: FastCount<Q>;
  readonly variants?: readonly Variant<Q>[];
  /**
   * The public row, the one place where redaction lives: the joins it reads and its columns, in the
   * contract's key order, that PostgreSQL writes as JSON text (`objectJson`).
   */
  readonly row: ListRow<V>;
  /**
   * The change marker of `from` and what else the row reads (see SyncInput); a list without one
   * takes no `changedSince` and hands out no sync position.
   */
  readonly sync?: ListSync;
  /** The reads its committed SQL shows, in `src/queries/<sql>` (`<name>.repository.sql` by default). */
  readonly examples: readonly ListExample<Q>[];
  readonly sql?: string;
}

/** The file of a list's committed SQL. */
export const sqlFileOf = (d: ListDefinition): string => d.sql ?? `${d.name}.repository.sql`;

/** A list that can be synced. */
export type SyncedListDefinition = ListDefinition & { readonly sync: ListSync };

/**
 * A list's filters, checked against its query DTO as they are written (`filtersOf<ListStockQuery>()({…})`):
 * a filter the DTO lacks, or a DTO parameter without a filter, does not compile.
 */
export const filtersOf =
  <Q>() =>
  (filters: Filters<Q>): Filters<Q> =>
    filters;

/** An example's instant (the query DTO holds parsed instants). */
export const instant = (text: string): Instant => parseRfc3339DateTime(text)!;

/** An example's sync position after every change of the test data: a round in which only rows changed. */
export const RECENT_POSITION = '9000000000';

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

/** A value among `choices` that writes no condition: the text depends on it (the list's `order`). */
export const choice = <T extends string>(choices: readonly T[]): FilterDefinition<T> => ({
  shape: (value) => value,
  where: () => [],
  choices,
});

/** Any of a list of values (a lookup by ids). */
export const anyOf = (column: string): FilterDefinition<readonly string[]> => ({
  where: (bind) => `${column} = ANY(${bind()})`,
});

/** Every term a condition of its own; the text depends on the number of terms. */
export const terms = (
  split: (given: string) => readonly string[],
  condition: (placeholder: string) => string,
  pattern: (term: string) => string,
  index?: string,
): FilterDefinition<readonly string[], string> => ({
  value: (given) => (given === undefined ? undefined : split(given)),
  shape: (list) => list.length,
  where: (bind, list) => list.map((_, n) => condition(bind((v) => pattern(v[n])))),
  index,
  planEachTime: true,
});

declare const rowType: unique symbol;
/** The row of a list that TypeScript reads before it answers (a promotion): no view to follow. */
export interface RowType<V> {
  readonly [rowType]?: V;
}
export const rowOf = <V>(): RowType<V> => ({});

/** A query type that is not a class (a lookup's): the list's filters are keyed by it all the same. */
export const queryOf = <Q>(): abstract new () => Q => Object as unknown as abstract new () => Q;

const ALL = new Map<string, ListDefinition>();

/**
 * Where @nestjs/swagger keeps a class's properties in declaration order (DECORATORS.API_MODEL_PROPERTIES_ARRAY,
 * not exported by the package): the view's key order. Were it ever renamed, defineList would throw.
 */
const VIEW_PROPERTIES = 'swagger/apiModelPropertiesArray';

/**
 * A list, declared against its query DTO `Q` and its view `V` (the classes the OpenAPI document
 * shows): its filters are keyed by the DTO's properties and its row's columns by the view's, in the
 * view's order. Every list is registered by name (definedLists): tests and `npm run sql` find them
 * there.
 */
export function defineList<Q, V>(
  _query: abstract new () => Q,
  view: (abstract new () => V) | RowType<V>,
  definition: ListDefinition<Q, V>,
): ListDefinition<Q, V> {
  if (typeof view === 'function') {
    const declared = ((Reflect.getMetadata(VIEW_PROPERTIES, view.prototype) as string[] | undefined) ?? []).map(
      (name) => name.replace(/^:/, ''),
    );
    const columns = Object.keys(definition.row.columns);
    if (JSON.stringify(columns) !== JSON.stringify(declared)) {
      throw new Error(
        `list ${definition.name}: row columns ${columns.join(', ')} are not ${view.name}'s keys in order`,
      );
    }
  }
  const order = definition.order;
  if (order !== undefined && (definition.filters as Record<string, FilterDefinition>)[order.by].choices === undefined) {
    throw new Error(`list ${definition.name}: its order depends on ${order.by}, which is not a choice`);
  }
  if (ALL.has(definition.name)) throw new Error(`list ${definition.name} is defined twice`);
  ALL.set(definition.name, definition);
  return definition;
}

/** Every list defined so far (every list of the application, once its module is loaded). */
export const definedLists = (): readonly ListDefinition[] => [...ALL.values()];

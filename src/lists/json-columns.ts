import { isoMillisSql } from '../database/sql-format.js';
import { STORED_FORM_FUNCTIONS } from '../schema/stored-row-functions.js';

/**
 * A column of a public row: the SQL of its value and how PostgreSQL writes that value as JSON text
 * (never NULL: SQL's NULL is written `null`). The row is the concatenation of its keys and columns,
 * in the view's order, written by PostgreSQL and sent as it is.
 *
 * Why not `row_to_json`: it (and `to_json`) looks up each value's type and output function for every
 * value of every row, about 1 µs a value; on the products page that was a fifth of the statement's
 * database time (docs/performance.md#settled-postgresql-writes-the-row-with-typed-column-writers).
 * Each writer here writes exactly the bytes `row_to_json` wrote for its kind, and
 * `test/bytes.e2e-spec.ts` still compares them with JSON.stringify of the parsed row.
 *
 * Each writer writes its key too (`pair`): the key, a quote and `null` are one constant with it, so a
 * value costs one or two concatenations, not four (each `||` copies the row so far).
 *
 * `T` is the view property's type, so that a writer of the wrong kind for a key does not compile.
 */
export interface JsonColumn<T> {
  /**
   * SQL whose value is `prefix` (a constant: `,"key":`, or `{"key":` for an object's first key)
   * followed by the column's JSON text; never NULL. `form` is how text and instants are written: as a
   * read writes them, or in a stored row's generated column (src/lists/stored-row.ts).
   */
  pair(prefix: string, form?: SqlForm): string;
  /** The writer, and the expression it writes (what a test checks an `id` against). */
  readonly kind: 'value' | 'text' | 'id' | 'integer' | 'decimal' | 'instant' | 'bool' | 'oneOf' | 'object';
  readonly sql: string;
  /** An object's columns. */
  readonly columns?: Readonly<Record<string, JsonColumn<unknown>>>;
  /** Only for the type: the property's type this column writes. */
  readonly value?: T;
}

/**
 * How the writers that call PostgreSQL's formatting functions write them. `to_json` and `to_char`
 * are STABLE (they can depend on settings for other types and patterns), which a generated column
 * may not call: a stored row calls IMMUTABLE wrappers of the same functions instead (the StoredRows
 * migration), for text and this one timestamp pattern, whose output depends on no setting.
 */
export interface SqlForm {
  jsonText(sql: string): string;
  isoMillis(sql: string): string;
}

/** The writers as a statement reads them. */
export const READ_FORM: SqlForm = {
  jsonText: (sql) => `to_json(${sql})::text`,
  isoMillis: isoMillisSql,
};

/** The writers as a generated column writes them (the wrappers of the StoredRows migration). */
export const STORED_FORM: SqlForm = {
  jsonText: (sql) => `public.${STORED_FORM_FUNCTIONS[0].name}(${sql})`,
  isoMillis: (sql) => `public.${STORED_FORM_FUNCTIONS[1].name}(${sql})`,
};

/** A prefix is written into a SQL string constant: keys are plain names (`KEY`), so it never holds a quote. */
const constant = (text: string): string => {
  if (text.includes("'") || text.includes('\\')) throw new Error(`not a plain JSON constant: ${text}`);
  return `'${text}'`;
};

/** A value whose text never needs escaping, quoted: `prefix"text"`, or `prefixnull` for NULL. */
const quoted =
  (textSql: (form: SqlForm) => string): JsonColumn<never>['pair'] =>
  (prefix, form = READ_FORM) =>
    `COALESCE(${constant(`${prefix}"`)} || ${textSql(form)} || '"', ${constant(`${prefix}null`)})`;

/**
 * Any value, written by PostgreSQL's own JSON writer (`to_json`, as `row_to_json` wrote it): numbers,
 * json and jsonb as they are. The only writer that looks up the value's type, for what is rare on a
 * page; never stored (its output can depend on settings).
 */
export const value = <T>(sql: string): JsonColumn<T> => ({
  pair: (prefix, form = READ_FORM) => {
    if (form !== READ_FORM) throw new Error(`value(${sql}) is written at read only`);
    return `${constant(prefix)} || COALESCE(to_json(${sql})::text, 'null')`;
  },
  kind: 'value',
  sql,
});

/** Text, escaped by PostgreSQL's JSON writer. */
export const text = <T extends string | null = string>(sql: string): JsonColumn<T> => ({
  pair: (prefix, form = READ_FORM) => `${constant(prefix)} || COALESCE(${form.jsonText(sql)}, 'null')`,
  kind: 'text',
  sql,
});

/**
 * An opaque id (a column of the `opaque_id` domain, whose CHECK allows only `A-Za-z0-9_.:-`, so it
 * never needs escaping). `test/bytes.e2e-spec.ts` asks PostgreSQL for the type of every `id`
 * column's expression and fails unless it is that domain.
 */
export const id = <T extends string | null = string>(sql: string): JsonColumn<T> => ({
  pair: quoted(() => `(${sql})`),
  kind: 'id',
  sql,
});

/**
 * An integer (smallint, integer or bigint), written as `to_json` writes it: its digits. Through bigint's
 * output, which depends on no setting, so a stored row may write it too (`value` may not).
 */
export const integer = <T extends number | null = number>(sql: string): JsonColumn<T> => ({
  pair: (prefix) => `COALESCE(${constant(prefix)} || (${sql})::bigint::text, ${constant(`${prefix}null`)})`,
  kind: 'integer',
  sql,
});

/** An exact decimal (numeric), written as a string with the column's scale, as the contract writes amounts. */
export const decimal = <T extends string | null = string>(sql: string): JsonColumn<T> => ({
  pair: quoted(() => `(${sql})::numeric::text`),
  kind: 'decimal',
  sql,
});

/** A timestamptz, written as the contract's UTC millisecond instant (`2026-10-01T08:00:00.000Z`). */
export const instant = <T extends string | null = string>(sql: string): JsonColumn<T> => ({
  pair: quoted((form) => form.isoMillis(sql)),
  kind: 'instant',
  sql,
});

/** A boolean (PostgreSQL refuses the statement when the expression is not one). */
export const bool = <T extends boolean | null = boolean>(sql: string): JsonColumn<T> => ({
  pair: (prefix) => {
    const [yes, no, none] = ['true', 'false', 'null'].map((v) => constant(`${prefix}${v}`));
    return `CASE (${sql}) WHEN true THEN ${yes} WHEN false THEN ${no} ELSE ${none} END`;
  },
  kind: 'bool',
  sql,
});

const PLAIN_VALUE = /^[A-Za-z0-9_ .:-]*$/;

function plainValues(values: readonly string[]): void {
  for (const value of values)
    if (!PLAIN_VALUE.test(value)) throw new Error(`oneOf: ${JSON.stringify(value)} would need escaping`);
}

/** One of a fixed set of strings: each written as a constant; any other value is escaped as text. */
export function oneOf<const V extends string>(sql: string, values: readonly V[]): JsonColumn<V> {
  plainValues(values);
  return {
    pair: (prefix, form) => {
      const whens = values.map((v) => `WHEN '${v}' THEN ${constant(`${prefix}"${v}"`)}`).join(' ');
      return `CASE (${sql}) ${whens} ELSE ${text(sql).pair(prefix, form)} END`;
    },
    kind: 'oneOf',
    sql,
  };
}

/**
 * One of a fixed set of strings, chosen by conditions in order (the first that holds), else
 * `otherwise`: each written as a constant, without computing the string first and matching it again.
 */
export function firstOf<const V extends string>(
  choices: readonly (readonly [when: string, value: V])[],
  otherwise: V,
): JsonColumn<V> {
  plainValues([...choices.map(([, v]) => v), otherwise]);
  const caseOf = (write: (value: V) => string): string =>
    `CASE ${choices.map(([when, v]) => `WHEN ${when} THEN ${write(v)}`).join('\n                ')} ELSE ${write(otherwise)} END`;
  return {
    pair: (prefix) => caseOf((v) => constant(`${prefix}"${v}"`)),
    kind: 'oneOf',
    sql: caseOf((v) => `'${v}'`),
  };
}

/** The columns of an object, keyed by its properties in its order. */
export type JsonColumns<V> = { readonly [K in keyof V]-?: JsonColumn<V[K]> };

/** An object written from its columns; `null` unless `when` holds (a LEFT JOIN's row that is there). */
export const object = <V>(when: string, columns: JsonColumns<V>): JsonColumn<V | null> => ({
  pair: (prefix, form) =>
    `CASE WHEN ${when} THEN ${objectJson(columns, prefix, form)} ELSE ${constant(`${prefix}null`)} END`,
  kind: 'object',
  sql: when,
  columns,
});

const KEY = /^[A-Za-z][A-Za-z0-9]*$/;

/**
 * SQL writing the JSON text of an object (after `prefix`): its keys, as constants, and its columns'
 * JSON, concatenated.
 */
export function objectJson(
  columns: Readonly<Record<string, JsonColumn<unknown>>>,
  prefix = '',
  form: SqlForm = READ_FORM,
): string {
  const pairs = keyedPairs(columns, prefix).map(([key, column]) => column.pair(key, form));
  return `(${pairs.length === 0 ? constant(`${prefix}{}`) : [...pairs, `'}'`].join(' ||\n    ')})`;
}

/** Each column with the constant its JSON follows: `{"key":` for the first (after `prefix`), `,"key":` after. */
export function keyedPairs(
  columns: Readonly<Record<string, JsonColumn<unknown>>>,
  prefix = '',
): [key: string, column: JsonColumn<unknown>][] {
  return Object.entries(columns).map(([key, column], n) => {
    if (!KEY.test(key)) throw new Error(`a JSON key must be a plain name: ${JSON.stringify(key)}`);
    return [`${n === 0 ? `${prefix}{` : ','}"${key}":`, column];
  });
}

import { type JsonColumn, keyedPairs, READ_FORM, STORED_FORM } from './json-columns.js';
import type { JoinRef, ListRow, TableRef } from './list-definition.js';

/**
 * A stored row: the parts of a list's public row that read one table's own columns are written when
 * the row is written, into generated columns of that table (`GENERATED ALWAYS AS (...) STORED`), and
 * a read concatenates them. PostgreSQL computes a generated column on every write path there is
 * (INSERT, UPDATE, COPY, a restore, logical replication's apply, under session_replication_role =
 * replica or with every trigger disabled): it cannot be stale, unlike a column kept by a trigger.
 *
 * Why: writing the row's JSON (the escaping of text, the decimals' and timestamps' text, the
 * concatenations) was most of a page statement's database time, paid again by every read
 * (docs/performance.md#stored-rows).
 *
 * The row is cut into runs of consecutive keys: a run whose columns all read one table (the list's
 * own, or one it joins) is a segment stored on that table, named `<stored>_<n>` (n counts the stored
 * segments from 1); any other key (one that reads two tables, as the stock row's updatedAt does, or a
 * `value`) is written at read, as before. A segment of a LEFT JOIN's table is read as
 * `COALESCE(alias.column, <the same JSON written at read>)`: a joined row that is not there reads as
 * it always did. The row's closing brace belongs to its last segment.
 *
 * The migration that adds the columns holds their SQL as it was then (a migration is a snapshot):
 * test/stored-rows.e2e-spec.ts fails when a column's expression in the database is not the one
 * `storedSegments` derives from the declaration now.
 */
export interface StoredSegment {
  /** The table the segment is stored on, and its alias in the list's statements. */
  readonly table: string;
  readonly alias: string;
  /** The generated column. */
  readonly column: string;
  /** Its generation expression: the table's bare columns, IMMUTABLE writers (STORED_FORM). */
  readonly expression: string;
  /** How a read writes the same JSON (READ_FORM, aliased columns): a LEFT JOIN's fallback, and the tests' oracle. */
  readonly atRead: string;
  /** Whether the table is on the nullable side of a LEFT JOIN. */
  readonly optional: boolean;
}

/** A piece of the row: a stored segment's, or SQL written at read. */
type Piece = { readonly segment: StoredSegment } | { readonly sql: string };

interface RowSource {
  readonly from: TableRef;
  readonly row: ListRow<unknown>;
}

/** The row's segments stored on tables, in the row's order. */
export function storedSegments(d: RowSource): StoredSegment[] {
  return pieces(d).flatMap((p) => ('segment' in p ? [p.segment] : []));
}

/** SQL of the row's JSON text at read: its stored segments and the keys written at read, in order. */
export function storedRowJson(d: RowSource): string {
  const read = pieces(d).map((p) => {
    if ('sql' in p) return p.sql;
    const { alias, column, optional, atRead } = p.segment;
    return optional ? `COALESCE(${alias}.${column}, ${atRead})` : `${alias}.${column}`;
  });
  return `(${read.join(' ||\n    ')})`;
}

function pieces(d: RowSource): Piece[] {
  const { stored } = d.row;
  if (stored === undefined) throw new Error(`${d.from.table}: the row declares no stored columns`);
  const tables = new Map<string, { table: string; optional: boolean }>([
    [d.from.alias, { table: d.from.table, optional: false }],
    ...d.row.joins.map((j: JoinRef): [string, { table: string; optional: boolean }] => [
      j.alias,
      { table: j.table, optional: j.kind === 'LEFT JOIN' },
    ]),
  ]);
  // Runs of consecutive keys by the one table they read (null: written at read).
  const runs: { alias: string | null; pairs: [string, JsonColumn<unknown>][] }[] = [];
  for (const pair of keyedPairs(d.row.columns as Record<string, JsonColumn<unknown>>)) {
    const [key, column] = pair;
    const read = aliasesIn(column.pair(key));
    const alias = column.kind !== 'value' && read.size === 1 && tables.has([...read][0]) ? [...read][0] : null;
    const last = runs.at(-1);
    if (last !== undefined && last.alias === alias && alias !== null) last.pairs.push(pair);
    else runs.push({ alias, pairs: [pair] });
  }
  let storedCount = 0;
  return runs.map((run, n): Piece => {
    const close = n === runs.length - 1 ? ["'}'"] : [];
    const atRead = `(${[...run.pairs.map(([key, column]) => column.pair(key, READ_FORM)), ...close].join(' || ')})`;
    if (run.alias === null) return { sql: atRead };
    const { table, optional } = tables.get(run.alias)!;
    const storedSql = [...run.pairs.map(([key, column]) => column.pair(key, STORED_FORM)), ...close].join(' || ');
    return {
      segment: {
        table,
        alias: run.alias,
        column: `${stored}_${++storedCount}`,
        expression: unaliased(storedSql, run.alias),
        atRead,
        optional,
      },
    };
  });
}

/** SQL's string constants, and what is between them. */
const CONSTANTS = /('(?:[^']|'')*')/;

/** Every qualified name of an expression (`p.name`: [p, name]), outside string constants. */
function qualifiedNames(sql: string): [string, string][] {
  return sql
    .split(CONSTANTS)
    .filter((_, n) => n % 2 === 0)
    .flatMap((part) =>
      [...part.matchAll(/\b([a-z_][a-z0-9_]*)\.([a-z_][a-z0-9_]*)/g)].map((m): [string, string] => [m[1], m[2]]),
    );
}

/** The table aliases an expression's column references name (`p.name`: p), outside string constants. */
function aliasesIn(sql: string): Set<string> {
  // Any qualified name counts, a schema's too: a column that calls `public.f(p.x)` reads two names and
  // is written at read (a function could read another table).
  return new Set(qualifiedNames(sql).map(([alias]) => alias));
}

/** The columns of its own table a stored segment reads (what a write of them changes). */
export function columnsRead(segment: StoredSegment): string[] {
  return [
    ...new Set(
      qualifiedNames(segment.atRead)
        .filter(([alias]) => alias === segment.alias)
        .map(([, c]) => c),
    ),
  ];
}

/** The expression over the table's own columns: `p.name` becomes `name` (outside string constants). */
function unaliased(sql: string, alias: string): string {
  const reference = new RegExp(`\\b${alias}\\.(?=[a-z_])`, 'g');
  return sql
    .split(CONSTANTS)
    .map((part, n) => (n % 2 === 1 ? part : part.replace(reference, '')))
    .join('');
}

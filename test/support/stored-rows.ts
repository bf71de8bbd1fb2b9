import type { StoredSegment } from '../../src/lists/stored-row.js';
import { storedRowSegments } from '../../src/row-writers/row-writers-state.js';

type Query = (
  sql: string,
  values?: unknown[],
) => Promise<{ rows: Record<string, unknown>[] } | Record<string, unknown>[]>;

/** Every stored row's segments (src/lists/stored-row.ts), of every list that declares one. */
export const STORED_SEGMENTS: readonly StoredSegment[] = storedRowSegments();

const rowsOf = (result: Awaited<ReturnType<Query>>): Record<string, unknown>[] =>
  Array.isArray(result) ? result : result.rows;

/**
 * The invariant of stored rows: every row's generated column holds the JSON a read would write from
 * the row's columns now. Returns one line per row that does not (at most 5 per column), empty when
 * it holds.
 */
export async function staleStoredRows(query: Query): Promise<string[]> {
  const stale: string[] = [];
  for (const s of STORED_SEGMENTS) {
    const found = rowsOf(
      await query(`SELECT ${s.alias}.ctid::text AS at, ${s.alias}.${s.column} AS stored, ${s.atRead} AS "atRead"
         FROM public.${s.table} ${s.alias} WHERE ${s.alias}.${s.column} IS DISTINCT FROM ${s.atRead} LIMIT 5`),
    );
    for (const r of found)
      stale.push(
        `${s.table}.${s.column} at ${r.at}: stored ${JSON.stringify(r.stored)}, read ${JSON.stringify(r.atRead)}`,
      );
  }
  return stale;
}

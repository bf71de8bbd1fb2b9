import { readFileSync } from 'node:fs';
import { STORED_SEGMENTS } from './stored-rows.js';
import { columnsRead } from '../../src/lists/stored-row.js';

/**
 * What the committed statements of a list read (src/queries/*.sql, written by `npm run sql`): the
 * tables in their FROM and JOIN clauses and every `alias.column` they name, a stored row's generated
 * column standing for the columns its expression reads. Tests derive their cases from it, so a new
 * join or a new column of a list reaches them without anyone remembering to add it.
 */
export interface ListReads {
  /** Table name → the columns the statements name. */
  readonly columns: ReadonlyMap<string, ReadonlySet<string>>;
  /** The statements, as committed (only those of the `list` method). */
  readonly statements: readonly string[];
}

const ROOT = new URL('../..', import.meta.url).pathname;

/** The statements of a committed query file, each with the description line above it and its values. */
export function committedStatements(file: string): { description: string; text: string; values: unknown[] }[] {
  const blocks = readFileSync(`${ROOT}src/queries/${file}`, 'utf8').split(/\n\n+/);
  const statements: { description: string; text: string; values: unknown[] }[] = [];
  for (const block of blocks) {
    const lines = block.split('\n');
    const comments = lines.filter((l) => l.startsWith('--'));
    const text = lines.filter((l) => !l.startsWith('--')).join('\n');
    if (comments.length === 0 || text.trim() === '') continue;
    const values = comments
      .map((l) => /^--\s+\$\d+ = (.*)$/.exec(l)?.[1])
      .filter((v): v is string => v !== undefined)
      .map((v) => (v === 'undefined' ? undefined : JSON.parse(v)));
    statements.push({ description: comments[0].replace(/^--\s*/, ''), text, values });
  }
  return statements;
}

/** Every `FROM table alias` and `JOIN table alias` of a statement (subqueries have no table name). */
export function tablesOf(text: string): Map<string, string> {
  const aliases = new Map<string, string>();
  for (const m of text.matchAll(/\b(?:FROM|JOIN)\s+([a-z_][a-z0-9_]*)\s+(?:AS\s+)?([a-z_][a-z0-9_]*)\b/gi)) {
    const [, table, alias] = m;
    if (/^(SELECT|LATERAL|WHERE|ON|ORDER|JOIN|LEFT|CROSS)$/i.test(table)) continue;
    aliases.set(alias, table);
  }
  return aliases;
}

/** What the statements of one list (`-- list…` in `file`) read. */
export function listReads(file: string): ListReads {
  const statements = committedStatements(file)
    .filter((s) => s.description.startsWith('list'))
    .map((s) => s.text);
  const columns = new Map<string, Set<string>>();
  for (const text of statements) {
    const aliases = tablesOf(text);
    for (const table of aliases.values()) if (!columns.has(table)) columns.set(table, new Set());
    for (const m of text.matchAll(/\b([a-z_][a-z0-9_]*)\.([a-z_][a-z0-9_]*)\b/g)) {
      const table = aliases.get(m[1]);
      if (table === undefined) continue;
      const stored = STORED.get(`${table}.${m[2]}`);
      for (const column of stored ?? [m[2]]) columns.get(table)!.add(column);
    }
  }
  return { columns, statements };
}

/** Each stored row's generated column (`table.column`) → the columns of its table its expression reads. */
const STORED = new Map(STORED_SEGMENTS.map((s) => [`${s.table}.${s.column}`, columnsRead(s)]));

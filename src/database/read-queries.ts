import { createHash } from 'node:crypto';
import type { PoolClient } from 'pg';
import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';

export interface ReadOptions {
  /**
   * Run as a named prepared statement (the default). Leave it off for queries whose best plan depends
   * on a parameter's value, such as a `LIKE` pattern, so that PostgreSQL plans each one afresh.
   */
  prepared?: boolean;
}

const names = new Map<string, string>();
const MAX_NAMES = 2000;

/**
 * A statement's name, derived from its text: PostgreSQL parses each distinct query once per pooled
 * connection and may settle on a generic plan, instead of parsing and planning on every request.
 * The texts are bounded (one per combination of filters; pages and values are parameters), and the
 * cap keeps a surprise from growing the server's statement cache without limit.
 */
function statementName(sql: string): string | undefined {
  let name = names.get(sql);
  if (name === undefined) {
    if (names.size >= MAX_NAMES) return undefined;
    name = `cia_${createHash('sha1').update(sql).digest('hex').slice(0, 24)}`;
    names.set(sql, name);
  }
  return name;
}

/**
 * The rows of a /v1 read: on a replica when DATABASE_REPLICA_URLS names any (else on the primary),
 * raw as the driver returns them (the views map them), as a prepared statement unless told otherwise.
 */
export async function readRows<T>(qb: SelectQueryBuilder<ObjectLiteral>, options: ReadOptions = {}): Promise<T[]> {
  const [text, values] = qb.getQueryAndParameters();
  const runner = qb.connection.createQueryRunner('slave');
  try {
    const client = (await runner.connect()) as PoolClient;
    const name = options.prepared === false ? undefined : statementName(text);
    const result = await client.query<T & ObjectLiteral>({ name, text, values });
    return result.rows;
  } finally {
    await runner.release();
  }
}

export async function readOne<T>(
  qb: SelectQueryBuilder<ObjectLiteral>,
  options: ReadOptions = {},
): Promise<T | undefined> {
  return (await readRows<T>(qb, options))[0];
}

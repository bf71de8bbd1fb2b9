import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { DatabaseOverloadedError } from '../database/deadline.js';
import { STORED_FORM_FUNCTIONS } from '../schema/stored-row-functions.js';
import { VOID_UNRECORDED_CHANGES_SQL } from '../schema/sync-state.js';
import { CATEGORY_LIST } from '../catalog/categories/categories.list.js';
import { PRODUCT_LIST } from '../catalog/products/products.list.js';
import { STOCK_LIST } from '../inventory/stock/stock.list.js';
import type { ListDefinition } from '../lists/list-definition.js';
import { RowTrust } from '../lists/row-trust.js';
import { type StoredSegment, storedSegments } from '../lists/stored-row.js';

/** How often the service looks again (a catalog read of a few rows on the primary). */
export const STORED_ROWS_CHECK_EVERY_MS = 10_000;
const FIRST_CHECK_MS = 3000;

/**
 * The lists whose rows are stored, named here rather than found among the lists defined so far: a
 * command (`db:migrate`) loads no list of its own. test/stored-rows.e2e-spec.ts checks that these
 * are every list that declares a stored row.
 */
export const STORED_ROW_LISTS: readonly ListDefinition[] = [PRODUCT_LIST, STOCK_LIST, CATEGORY_LIST];

/** Reads of those lists, for messages: "reads of products, stock and categories". */
const readsOf = (differences: readonly StoredRowsDifference[]): string => {
  const rows = new Set(differences.flatMap((d) => d.rows));
  const names = STORED_ROW_LISTS.filter((d) => rows.has(d.row.stored!)).map((d) => d.name);
  return `reads of ${names.join(', ').replace(/, ([^,]*)$/, ' and $1')}`;
};

/** Every stored segment of those lists, in a fixed order. */
export const storedRowSegments = (): StoredSegment[] => STORED_ROW_LISTS.flatMap((d) => storedSegments(d));

/** Every list's stored rows: what a wrapper that differs concerns. */
const ALL_STORED_ROWS: readonly string[] = STORED_ROW_LISTS.map((d) => d.row.stored!);

/**
 * What differs, and which lists' stored rows it makes wrong (their `row.stored`): a wrapper, every
 * list's; a column, its own list's. A list whose rows are intact is still read, and db:migrate makes
 * again only what differs.
 */
export interface StoredRowsDifference {
  readonly what: string;
  readonly rows: readonly string[];
  /** The column that differs; none for a wrapper (every column is then made again). */
  readonly segment?: StoredSegment;
}

const whats = (differences: readonly StoredRowsDifference[]): string[] => differences.map((d) => d.what);

type Query = (sql: string, values?: unknown[]) => Promise<Record<string, unknown>[]>;

/**
 * One short statement whose value changes with anything the checks below read: the wrappers' catalog
 * rows, the stored columns' and their expressions', the opaque_id domain's constraints (each with its
 * xmin, so that any change of them shows). The periodic check runs only this, on one connection for
 * one statement as the service's other housekeeping does (a pool of two is the request path's), and
 * the full check only when it changed.
 */
function fingerprintSql(): string {
  const functions = STORED_FORM_FUNCTIONS.map((f) => `to_regprocedure('public.${f.name}(${f.argument})')`);
  const columns = storedRowSegments().map((s) => `(to_regclass('public.${s.table}'), '${s.column}')`);
  return `SELECT md5(COALESCE(string_agg(x, '|' ORDER BY x), '')) AS fingerprint FROM (
    SELECT 'f ' || p.oid::text || ' ' || p.xmin::text || ' ' || p.provolatile::text || ' ' || p.prosrc
      FROM pg_proc p WHERE p.oid IN (${functions.join(', ')})
    UNION ALL
    SELECT 'c ' || a.attrelid::text || ' ' || a.attname || ' ' || a.attgenerated::text || ' ' || a.xmin::text || ' ' ||
           COALESCE(pg_get_expr(d.adbin, d.adrelid), '')
      FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
     WHERE (a.attrelid, a.attname::text) IN (${columns.join(', ')}) AND NOT a.attisdropped
    UNION ALL
    SELECT 'd ' || c.oid::text || ' ' || c.xmin::text || ' ' || c.convalidated::text || ' ' || pg_get_constraintdef(c.oid)
      FROM pg_constraint c WHERE c.contypid = to_regtype('public.opaque_id')) f(x)`;
}

/** A generated column's expression as PostgreSQL prints it (`pg_get_expr`), or how it is not one. */
async function liveExpression(query: Query, table: string, column: string): Promise<string | 'missing' | 'plain'> {
  const [live] = await query(
    `SELECT a.attgenerated AS kind, pg_get_expr(d.adbin, d.adrelid) AS expression
       FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
      WHERE a.attrelid = to_regclass($1::text) AND a.attname = $2::text AND NOT a.attisdropped`,
    [table, column],
  );
  if (live === undefined) return 'missing';
  return live.kind === 's' ? String(live.expression) : 'plain';
}

/**
 * Each stored column's expression as this version declares it, as PostgreSQL prints it: from a column
 * of that expression on a temporary copy of its table. `query` runs in a transaction the caller rolls
 * back (the copies go with it).
 */
export async function declaredExpressions(query: Query): Promise<Map<string, string>> {
  const declared = new Map<string, string>();
  for (const [n, s] of storedRowSegments().entries()) {
    const copy = `stored_row_declared_${n}`;
    await query(`CREATE TEMP TABLE ${copy} (LIKE public.${s.table}) ON COMMIT DROP`);
    await query(`ALTER TABLE ${copy} DROP COLUMN IF EXISTS ${s.column}`);
    await query(`ALTER TABLE ${copy} ADD COLUMN ${s.column} text GENERATED ALWAYS AS (${s.expression}) STORED`);
    declared.set(`${s.table}.${s.column}`, String(await liveExpression(query, `pg_temp.${copy}`, s.column)));
  }
  return declared;
}

/**
 * What differs between the database's stored rows and this version's declarations: each generated
 * column must be there, generated, with the expression its declaration derives (`declared`), and each
 * wrapper it calls must be IMMUTABLE with this version's body. Empty when intact.
 */
export async function storedRowsDiffer(
  query: Query,
  declared: ReadonlyMap<string, string>,
): Promise<StoredRowsDifference[]> {
  const wrong = await wrappersDiffer(query);
  for (const d of STORED_ROW_LISTS)
    for (const s of storedSegments(d)) {
      const at = `${s.table}.${s.column}`;
      const live = await liveExpression(query, `public.${s.table}`, s.column);
      const what =
        live === 'missing'
          ? `${at} is missing`
          : live === 'plain'
            ? `${at} is not a generated column (its expression was dropped?)`
            : live !== declared.get(at)
              ? `${at} has another expression than this version's`
              : undefined;
      if (what !== undefined) wrong.push({ what, rows: [d.row.stored!], segment: s });
    }
  return wrong;
}

/**
 * The wrappers that are not this version's: missing, not IMMUTABLE, with another body, or changed
 * after a stored column was made (its catalog row is younger: `CREATE OR REPLACE`, even of the same
 * body, may have written rows in between that were not computed again). The migration and
 * rebuildStoredRows make the wrappers and the columns in one transaction.
 */
async function wrappersDiffer(query: Query): Promise<StoredRowsDifference[]> {
  const wrong: StoredRowsDifference[] = [];
  const columns = storedRowSegments().map((s) => `('public.${s.table}', '${s.column}')`);
  for (const f of STORED_FORM_FUNCTIONS) {
    const [found] = await query(
      `SELECT p.prosrc AS body, p.provolatile AS volatility,
              age(p.xmin) < (SELECT max(age(a.xmin)) FROM pg_attribute a
                               JOIN (VALUES ${columns.join(', ')}) c(tbl, col)
                                 ON a.attrelid = to_regclass(c.tbl) AND a.attname = c.col) AS "changedSince"
         FROM pg_proc p WHERE p.oid = to_regprocedure($1::text)`,
      [`public.${f.name}(${f.argument})`],
    );
    const name = `public.${f.name}(${f.argument})`;
    const what =
      found === undefined
        ? `${name} is missing`
        : found.body !== f.body || found.volatility !== 'i'
          ? `${name} is not this version's`
          : found.changedSince === true
            ? `${name} was replaced after the rows were stored`
            : undefined;
    if (what !== undefined) wrong.push({ what, rows: ALL_STORED_ROWS });
  }
  return wrong;
}

/**
 * Characters a JSON string must escape (a quote, a backslash, control characters) and a space, which
 * the `opaque_id` domain's CHECK keeps out of every id: the `id` writer writes ids without escaping
 * (src/lists/json-columns.ts), at read and stored. Its code points.
 */
const NEEDS_ESCAPING = [0x22, 0x5c, 0x01, 0x0a, 0x20];

/** Whether the opaque_id domain takes an id the id writer cannot write (its CHECK dropped or changed). */
async function idDomainDiffers(query: Query): Promise<string[]> {
  for (const code of NEEDS_ESCAPING) {
    await query(`SAVEPOINT id_domain`);
    const taken = await query(`SELECT ('a' || chr($1::int))::public.opaque_id AS id`, [code]).then(
      () => true,
      () => false,
    );
    await query(`ROLLBACK TO SAVEPOINT id_domain`);
    if (taken)
      return [`the opaque_id domain takes an id with U+${code.toString(16).padStart(4, '0')}: its CHECK was dropped`];
  }
  return [];
}

/** `work` in a transaction of its own on the primary, rolled back. */
async function rolledBack<T>(dataSource: DataSource, work: (query: Query) => Promise<T>): Promise<T> {
  const runner = dataSource.createQueryRunner('master');
  try {
    await runner.startTransaction();
    return await work((sql, values) => runner.query(sql, values));
  } finally {
    if (runner.isTransactionActive) await runner.rollbackTransaction();
    await runner.release();
  }
}

/** What differs (storedRowsDiffer), with the declared expressions printed by this database now. */
export function checkStoredRows(dataSource: DataSource): Promise<StoredRowsDifference[]> {
  return rolledBack(dataSource, async (query) => {
    const wrappers = await wrappersDiffer(query);
    // Without this version's wrappers the declared expressions cannot be printed: that alone differs.
    if (wrappers.length > 0) return wrappers;
    return storedRowsDiffer(query, await declaredExpressions(query));
  });
}

/**
 * Makes what differs this version's again (remakeStoredRows): a wrapper that differs, with every
 * stored column (a column older than its wrapper would be found wrong again); else only the columns
 * that differ, so that a category column dropped rewrites the categories, not the products.
 */
export async function rebuildStoredRows(m: EntityManager, wrong: readonly StoredRowsDifference[]): Promise<void> {
  await m.query(`SET LOCAL statement_timeout = 0`);
  const wrappers = wrong.some((d) => d.segment === undefined);
  if (wrappers)
    for (const f of STORED_FORM_FUNCTIONS)
      await m.query(`CREATE OR REPLACE FUNCTION public.${f.name}(value ${f.argument}) RETURNS text
      LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$${f.body}$$`);
  const segments = wrappers ? storedRowSegments() : wrong.flatMap((d) => (d.segment ? [d.segment] : []));
  // Dropped and added again, which computes every row with the wrappers as they are now.
  for (const s of segments) {
    await m.query(`ALTER TABLE public.${s.table} DROP COLUMN IF EXISTS ${s.column}`);
    await m.query(
      `ALTER TABLE public.${s.table} ADD COLUMN ${s.column} text GENERATED ALWAYS AS (${s.expression}) STORED`,
    );
  }
}

/**
 * The fail-safe of the row writers (src/lists/json-columns.ts, src/lists/stored-row.ts): what they rely
 * on in the database, which DDL could take away while the service runs.
 *
 * - Stored rows: PostgreSQL computes a generated column on every write, but DDL can still make one lie:
 *   a wrapper replaced (CREATE OR REPLACE FUNCTION does not compute the rows stored with it again), an
 *   expression dropped (the column keeps its values and is no longer written) or set to another. While
 *   so, every read of a list whose stored rows it concerns is refused (a wrapper: every such list; a
 *   column: its own list); `npm run db:migrate` makes them again.
 * - Ids: the `id` writer writes them without escaping, which the `opaque_id` domain's CHECK allows. While
 *   the domain takes what needs escaping, every list read is refused; the operator restores the CHECK.
 *
 * Checked at the start and every STORED_ROWS_CHECK_EVERY_MS; while a check fails, those reads answer
 * 503 and /health/ready 503, and an error line names what differs and the remedy. A check that cannot
 * run (the database down, not migrated) changes nothing.
 */
@Injectable()
export class RowWritersState extends RowTrust implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('RowWriters');
  private timer: NodeJS.Timeout | undefined;
  private checking: Promise<unknown> = Promise.resolve();
  private stored: StoredRowsDifference[] = [];
  private ids: string[] = [];
  private declared: Map<string, string> | undefined;
  private readonly fingerprint = fingerprintSql();
  /** The fingerprint the last full check saw. */
  private checked: string | undefined;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    super();
  }

  /** Whether the row writers' assumptions hold, as last checked. */
  get intact(): boolean {
    return this.stored.length === 0 && this.ids.length === 0;
  }

  /** Refuses a read of the list while a check fails for it: a 503, never rows that may be wrong. */
  override assertIntact(definition: Pick<ListDefinition, 'row'>): void {
    const rows = definition.row.stored;
    if (this.ids.length > 0 || (rows !== undefined && this.stored.some((d) => d.rows.includes(rows))))
      throw new DatabaseOverloadedError(STORED_ROWS_CHECK_EVERY_MS / 1000);
  }

  /** The first check before the port opens (at most FIRST_CHECK_MS: a database that hangs must not stop the start). */
  async onApplicationBootstrap(): Promise<void> {
    let inFlight = false;
    const tick = (): void => {
      if (inFlight) return;
      inFlight = true;
      this.checking = this.check().finally(() => (inFlight = false));
    };
    tick();
    this.timer = setInterval(tick, STORED_ROWS_CHECK_EVERY_MS).unref();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.checking, new Promise((resolve) => (timer = setTimeout(resolve, FIRST_CHECK_MS)))]);
    clearTimeout(timer);
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.checking;
  }

  /**
   * Checks once; returns what differs (empty: intact). Cheap while nothing changed: one statement
   * (fingerprintSql) unless the catalog it reads changed since the last full check, which prints
   * the declared expressions with temporary tables (catalog writes) and tries the domain.
   */
  async check(): Promise<string[]> {
    let stored: StoredRowsDifference[];
    let ids: string[];
    try {
      const [{ fingerprint }] = await this.dataSource.query<{ fingerprint: string }[]>(this.fingerprint);
      if (fingerprint === this.checked) return [...whats(this.stored), ...this.ids];
      [stored, ids] = await rolledBack(this.dataSource, async (query) => [
        await this.storedDiffer(query),
        await idDomainDiffers(query),
      ]);
      this.checked = fingerprint;
    } catch (error) {
      // Not migrated yet (readiness says so), or the database is down: nothing to conclude.
      this.logger.debug(`the row writers were not checked: ${(error as Error).message}`);
      return [...whats(this.stored), ...this.ids];
    }
    const reads = readsOf(stored);
    this.report(
      whats(stored),
      whats(this.stored),
      'Stored rows',
      reads[0].toUpperCase() + reads.slice(1),
      '`npm run db:migrate` makes them again',
    );
    this.report(
      ids,
      this.ids,
      'Ids',
      'Every list read',
      "the opaque_id domain's CHECK is restored (see the initial migration)",
    );
    this.stored = stored;
    this.ids = ids;
    return [...whats(stored), ...ids];
  }

  private async storedDiffer(query: Query): Promise<StoredRowsDifference[]> {
    const wrappers = await wrappersDiffer(query);
    // Neither wrapper: the StoredRows migration has not run (readiness says so), or
    // DROP FUNCTION … CASCADE took the columns too (every read then fails loudly).
    if (wrappers.length === STORED_FORM_FUNCTIONS.length && wrappers.every((w) => w.what.endsWith('missing')))
      return [];
    if (wrappers.length > 0) return wrappers;
    this.declared ??= await declaredExpressions(query);
    const found = await storedRowsDiffer(query, this.declared);
    if (found.length === 0) return found;
    this.declared = await declaredExpressions(query);
    return storedRowsDiffer(query, this.declared);
  }

  private report(now: string[], before: string[], what: string, reads: string, remedy: string): void {
    if (now.join() === before.join()) return;
    if (now.length > 0)
      this.logger.error(`${what} differ from this version's: ${now.join('; ')}. ${reads} answer 503 until ${remedy}.`);
    else this.logger.log(`${what} are this version's again: ${reads.toLowerCase()} are answered`);
  }
}

/**
 * What `migrate()` runs after the migrations, under their lock (db:migrate, MIGRATE_ON_START): stored
 * rows that are not this version's (DDL after their migration) are made again, and, when they are a
 * synced list's (a synced table's columns or a wrapper changed), every older sync position is refused,
 * since rows sent meanwhile may have been wrong. Returns what it did, for the command's output.
 */
export async function remakeStoredRows(dataSource: DataSource): Promise<string[]> {
  const wrong = await checkStoredRows(dataSource);
  if (wrong.length === 0) return [];
  try {
    await dataSource.transaction(async (m) => {
      await rebuildStoredRows(m, wrong);
      // Voids older positions when a synced table's columns (or a wrapper) changed: not for categories alone.
      await m.query(VOID_UNRECORDED_CHANGES_SQL);
    });
  } catch (error) {
    throw rowsBreakingAConstraint(error, readsOf(wrong)) ?? error;
  }
  return [`the stored rows, made again (${wrong.map((d) => d.what).join('; ')})`];
}

/** PostgreSQL's unique_violation. */
const UNIQUE_VIOLATION = '23505';

/** The one deferrable UNIQUE of the stored rows' tables (migration DeferrableStoreSku). */
const STORE_SKU_KEY = 'products_store_id_sku_key';

/**
 * Adding a stored column again rewrites the table and builds its indexes again, which checks every row
 * against them. Rows that break the deferrable UNIQUE (store_id, sku) get in when its check, deferred
 * to a trigger, does not fire: written with the table's triggers disabled or session_replication_role
 * = replica. The rebuild is one transaction, so the stored rows are as they were; the error names the
 * first key PostgreSQL met (quoted: a sku may hold line breaks) and what to do.
 */
function rowsBreakingAConstraint(error: unknown, refused: string): Error | undefined {
  const driver = (error as { driverError?: { code?: string; detail?: string; constraint?: string; table?: string } })
    .driverError;
  if (driver?.code !== UNIQUE_VIOLATION) return undefined;
  const why =
    driver.constraint === STORE_SKU_KEY
      ? ', written while its check, deferred to a trigger, did not fire (triggers disabled or session_replication_role = replica)'
      : '';
  return new Error(
    `the stored rows could not be made again: rows of ${driver.table ?? 'a table'} break ` +
      `${driver.constraint ?? 'a unique constraint'} (${JSON.stringify(driver.detail ?? 'duplicated keys')})${why}. ` +
      `The stored rows were not changed; ${refused} stay refused. Give those rows distinct values ` +
      '(docs/operations.md#when-rows-cannot-be-trusted finds them all) and run db:migrate again.',
    { cause: error },
  );
}

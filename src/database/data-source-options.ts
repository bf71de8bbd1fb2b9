import { DataSource, type DataSourceOptions } from 'typeorm';
import type { DbPooler } from '../config/app-config.js';
import { ENTITIES, MIGRATIONS } from '../schema/index.js';
import {
  RECORD_GUARD_SQL,
  RECOUNT_PRODUCTS_SQL,
  SET_TRIGGER_MODES_SQL,
  TRIGGERS_OK_SQL,
  TRIGGERS_WRONG_SQL,
  VOID_UNRECORDED_CHANGES_SQL,
} from '../schema/sync-state.js';

export interface DatabaseSettings {
  url: string;
  replicaUrls?: readonly string[];
  poolSize?: number;
  statementTimeoutMs?: number;
  applicationName?: string;
  /**
   * The service's request path: no parallel query. A parallel statement runs on workers beyond its
   * connection (three processes for one search on 2 workers), which admission by cost cannot count;
   * without them an expensive read uses one backend, one core at most, and the pool bounds the
   * database's work (docs/rate-limits.md#admission-by-cost).
   */
  serial?: boolean;
  /**
   * A pooler in transaction mode hands each transaction to any of its server connections, and
   * refuses startup parameters it does not know: the statement timeout and the serial setting are
   * then the server's (checked at start: verifyServerSettings), not this connection's.
   */
  pooler?: DbPooler;
}

/**
 * One definition of the connection for the service, the commands and ormconfig.ts. Every query is
 * bounded by a statement timeout and every pool checkout by a connection timeout, so that overload
 * ends in a prompt error rather than a hung request.
 */
export function dataSourceOptions(settings: DatabaseSettings): DataSourceOptions {
  const perConnection = settings.pooler !== 'transaction';
  const extra = {
    max: settings.poolSize ?? 10,
    // Connections, once made, stay open: new ones after a quiet spell cost a burst seconds of
    // queueing (measured: p99 1.2 s at 430 page-1 requests/s on a pool idle for 40 s, 0.13 s kept).
    min: settings.poolSize ?? 10,
    // Kept connections are checked by TCP keepalive and renewed every 10 minutes, so that a
    // failover that drops them silently does not leave dead ones in the pool.
    keepAlive: true,
    maxLifetimeSeconds: 600,
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30000,
    ...(perConnection ? { statement_timeout: settings.statementTimeoutMs ?? 5000 } : {}),
    application_name: settings.applicationName ?? 'catalog-inventory-read-api',
    ...(settings.serial && perConnection ? { options: '-c max_parallel_workers_per_gather=0' } : {}),
  };
  const replicas = settings.replicaUrls ?? [];
  return {
    type: 'postgres',
    ...(replicas.length > 0
      ? { replication: { master: { url: settings.url }, slaves: replicas.map((url) => ({ url })) } }
      : { url: settings.url }),
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: 'schema_migrations',
    migrationsTransactionMode: 'all',
    synchronize: false,
    logging: false,
    extra,
  } as DataSourceOptions;
}

export function createDataSource(settings: DatabaseSettings): DataSource {
  return new DataSource(dataSourceOptions(settings));
}

/**
 * Applies pending migrations; returns the names of those applied. Around them it keeps sync positions
 * fail safe (see src/schema/sync-state.ts): before, whatever changed the synced tables' triggers or
 * columns outside the migrations voids older positions, and triggers found in another firing mode (a
 * restore, an operator) are set back, with the product counts they maintain recounted; after, the
 * catalog as the migrations left it is recorded as the service's own. `afterMigrations` runs under
 * the same lock before that record (the commands pass remakeStoredRows, src/row-writers/), and says
 * what it did.
 */
export async function migrate(
  settings: DatabaseSettings,
  afterMigrations?: (ds: DataSource) => Promise<string[]>,
): Promise<string[]> {
  const ds = createDataSource({ ...settings, replicaUrls: [], poolSize: 2, statementTimeoutMs: 10 * 60 * 1000 });
  await ds.initialize();
  // Pods that start together (init containers, MIGRATE_ON_START) take turns: the second one waits,
  // then finds nothing left to apply.
  const lock = ds.createQueryRunner();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    await keepPositionsSafe(ds, 'before');
    const applied = (await ds.runMigrations({ transaction: 'all' })).map((m) => m.name);
    if (afterMigrations !== undefined) applied.push(...(await afterMigrations(ds)));
    await keepPositionsSafe(ds, 'after');
    return applied;
  } finally {
    await lock.release();
    await ds.destroy();
  }
}

/** Any constant of our own; the session-level lock ends with its connection at the latest. */
const MIGRATION_LOCK_ID = 7_406_311_021;

/**
 * See migrate(). Before: a change outside the migrations voids older positions. After: triggers are
 * set back to their declared modes (a trigger found off voided positions before), and the catalog as it
 * is now is recorded. Nothing to do before the FailSafeSync migration made sync_state.
 */
async function keepPositionsSafe(ds: DataSource, when: 'before' | 'after'): Promise<void> {
  await ds.transaction(async (m) => {
    const [{ exists }] = await m.query(`SELECT to_regclass('public.sync_state') IS NOT NULL AS exists`);
    if (!exists) return;
    if (when === 'before') {
      await m.query(VOID_UNRECORDED_CHANGES_SQL);
      return;
    }
    const [{ ok }] = await m.query(`SELECT ${TRIGGERS_OK_SQL} AS ok`);
    if (!ok) {
      await m.query(SET_TRIGGER_MODES_SQL);
      for (const statement of RECOUNT_PRODUCTS_SQL) await m.query(statement);
      const wrong: { wrong: string }[] = await m.query(TRIGGERS_WRONG_SQL);
      // A dropped trigger cannot be made again here: every sync round is refused until it is.
      if (wrong.length > 0)
        throw new Error(`triggers of the service are missing: ${wrong.map((w) => w.wrong).join(', ')}`);
    }
    await m.query(RECORD_GUARD_SQL);
  });
}

/**
 * Behind a pooler in transaction mode, what each connection would have set for itself must be the
 * server's own: the role's or database's settings (ALTER ROLE … SET), or the pooler's connect_query.
 * A start on a server without them is refused, naming what to run.
 */
export async function verifyServerSettings(
  dataSource: DataSource,
  expected: { statementTimeoutMs: number },
): Promise<void> {
  const [row]: { statementTimeoutMs: string; parallel: string; role: string }[] = await dataSource.query(
    `SELECT (SELECT setting FROM pg_settings WHERE name = 'statement_timeout') AS "statementTimeoutMs",
            current_setting('max_parallel_workers_per_gather') AS parallel, current_user AS role`,
  );
  const wrong: string[] = [];
  if (Number(row.statementTimeoutMs) !== expected.statementTimeoutMs)
    wrong.push(`statement_timeout is ${row.statementTimeoutMs} ms, not ${expected.statementTimeoutMs}`);
  if (row.parallel !== '0') wrong.push(`max_parallel_workers_per_gather is ${row.parallel}, not 0`);
  if (wrong.length > 0)
    throw new Error(
      `DB_POOLER=transaction: the server's own settings must bound each statement, and ${wrong.join(' and ')}. ` +
        `Run: ALTER ROLE "${row.role}" SET statement_timeout = ${expected.statementTimeoutMs}; ` +
        `ALTER ROLE "${row.role}" SET max_parallel_workers_per_gather = 0; then restart the pooler's server connections ` +
        '(docs/operations.md#connection-budget)',
    );
}

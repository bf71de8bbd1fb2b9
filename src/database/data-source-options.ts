import { DataSource, type DataSourceOptions } from 'typeorm';
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
}

/**
 * One definition of the connection for the service, the commands and ormconfig.ts. Every query is
 * bounded by a statement timeout and every pool checkout by a connection timeout, so that overload
 * ends in a prompt error rather than a hung request.
 */
export function dataSourceOptions(settings: DatabaseSettings): DataSourceOptions {
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
    statement_timeout: settings.statementTimeoutMs ?? 5000,
    application_name: settings.applicationName ?? 'catalog-inventory-read-api',
    ...(settings.serial ? { options: '-c max_parallel_workers_per_gather=0' } : {}),
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
 * catalog as the migrations left it is recorded as the service's own.
 */
export async function migrate(settings: DatabaseSettings): Promise<string[]> {
  const ds = createDataSource({ ...settings, replicaUrls: [], poolSize: 2, statementTimeoutMs: 10 * 60 * 1000 });
  await ds.initialize();
  // Pods that start together (init containers, MIGRATE_ON_START) take turns: the second one waits,
  // then finds nothing left to apply.
  const lock = ds.createQueryRunner();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    await keepPositionsSafe(ds, 'before');
    const applied = await ds.runMigrations({ transaction: 'all' });
    await keepPositionsSafe(ds, 'after');
    return applied.map((m) => m.name);
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

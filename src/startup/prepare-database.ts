import { readFile } from 'node:fs/promises';
import { type AppConfig, ConfigError } from '../config/app-config.js';
import { importDataset } from '../dataset/import-dataset.js';
import { createDataSource, migrate } from '../database/data-source-options.js';
import { remakeStoredRows } from '../row-writers/row-writers-state.js';
import {
  type EmbeddedDatabase,
  embeddedPostgresInstalled,
  startEmbeddedPostgres,
} from '../database/embedded-postgres.js';

export const DEMO_DATASET_URL = new URL('../../fixtures/demo.json', import.meta.url);
export const EMBEDDED_DATABASE = 'catalog';

export interface PreparedDatabase {
  config: AppConfig;
  embedded: EmbeddedDatabase | null;
  demoLoaded: boolean;
  migrations: string[];
}

/**
 * The newcomer's path: with no DATABASE_URL, start the embedded PostgreSQL under DATA_DIR, migrate it,
 * and load the demo data set when it is empty. With DATABASE_URL, migrate only if MIGRATE_ON_START.
 */
export async function prepareDatabase(config: AppConfig, log: (line: string) => void): Promise<PreparedDatabase> {
  let embedded: EmbeddedDatabase | null = null;
  let url = config.databaseUrl;
  if (url === null) {
    // A production install (npm ci --omit=dev, the image) has no embedded PostgreSQL to offer.
    if (!(await embeddedPostgresInstalled()))
      throw new ConfigError(
        'DATABASE_URL',
        'is required: set it to the PostgreSQL server (postgres://user:password@host:5432/database). ' +
          'The embedded PostgreSQL, for trying the service locally, is a development dependency and is not installed here.',
      );
    log(`Starting the embedded PostgreSQL in ${config.dataDir}/pg …`);
    embedded = await startEmbeddedPostgres({ dataDir: config.dataDir, persistent: true });
    await embedded.createDatabase(EMBEDDED_DATABASE);
    url = embedded.urlFor(EMBEDDED_DATABASE);
  }
  const prepared: AppConfig = Object.freeze({ ...config, databaseUrl: url });
  try {
    const migrations = config.migrateOnStart ? await migrate({ url }, remakeStoredRows) : [];
    if (migrations.length > 0) log(`Applied migrations: ${migrations.join(', ')}`);
    let demoLoaded = false;
    if (embedded !== null && (await isEmpty(url))) {
      const demo = JSON.parse(await readFile(DEMO_DATASET_URL, 'utf8'));
      const ds = createDataSource({ url });
      await ds.initialize();
      try {
        await importDataset(ds, demo, { replace: false });
      } finally {
        await ds.destroy();
      }
      demoLoaded = true;
      log('Loaded the demo data set (fixtures/demo.json).');
    }
    return { config: prepared, embedded, demoLoaded, migrations };
  } catch (error) {
    await embedded?.stop();
    throw error;
  }
}

async function isEmpty(url: string): Promise<boolean> {
  const ds = createDataSource({ url });
  await ds.initialize();
  try {
    const rows: unknown[] = await ds.query('SELECT 1 FROM tenants LIMIT 1');
    return rows.length === 0;
  } finally {
    await ds.destroy();
  }
}

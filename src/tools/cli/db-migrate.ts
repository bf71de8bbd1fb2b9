import '../../startup/exit-without-deadlock.js';
import 'reflect-metadata';
import { ConfigError, loadConfig } from '../../config/app-config.js';
import { commandDatabase } from '../../startup/command-database.js';
import { migrate } from '../../database/data-source-options.js';
import { remakeStoredRows } from '../../row-writers/row-writers-state.js';

async function main(): Promise<number> {
  const config = loadConfig(process.env);
  // Its lock is a session's (see MIGRATE_ON_START in app-config.ts).
  if (config.dbPooler === 'transaction')
    throw new ConfigError(
      'DB_POOLER',
      'is "transaction": run the migrations with DATABASE_URL naming PostgreSQL itself (docs/operations.md#connection-budget)',
    );
  const database = await commandDatabase(config);
  try {
    const applied = await migrate({ url: database.url }, remakeStoredRows);
    console.log(applied.length === 0 ? 'The database is up to date.' : `Applied: ${applied.join(', ')}`);
    return 0;
  } finally {
    await database.release();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(
      error instanceof ConfigError ? error.message : `Migration failed: ${(error as Error).message ?? error}`,
    );
    process.exit(1);
  },
);

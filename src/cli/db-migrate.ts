import 'reflect-metadata';
import { ConfigError, loadConfig } from '../config/app-config.js';
import { migrate } from '../database/data-source-options.js';

async function main(): Promise<number> {
  const config = loadConfig(process.env);
  if (config.databaseUrl === null) {
    console.error('DATABASE_URL is not set: db:migrate migrates the database DATABASE_URL names (npm start migrates the embedded database by itself).');
    return 64;
  }
  const applied = await migrate({ url: config.databaseUrl });
  console.log(applied.length === 0 ? 'The database is up to date.' : `Applied: ${applied.join(', ')}`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : `Migration failed: ${(error as Error).message ?? error}`);
    process.exit(1);
  },
);

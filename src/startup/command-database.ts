import type { AppConfig } from '../config/app-config.js';
import { runningEmbeddedUrl } from '../database/embedded-postgres.js';
import { EMBEDDED_DATABASE, prepareDatabase } from './prepare-database.js';

export interface CommandDatabase {
  url: string;
  /** Stops the embedded PostgreSQL when the command started it. */
  release(): Promise<void>;
}

/**
 * The database a command (db:import, db:migrate, admin) works on: DATABASE_URL, else the embedded
 * database of `npm start`. A running one is shared; otherwise it is started for the command, prepared
 * as `npm start` would (migrated, demo data when empty) and stopped afterwards, so that what the
 * command wrote is what the next `npm start` serves.
 */
export async function commandDatabase(config: AppConfig): Promise<CommandDatabase> {
  const url = config.databaseUrl ?? runningEmbeddedUrl(config.dataDir, EMBEDDED_DATABASE);
  if (url !== null) return { url, release: async () => undefined };
  const prepared = await prepareDatabase(config, () => undefined);
  return { url: prepared.config.databaseUrl!, release: async () => prepared.embedded?.stop() };
}

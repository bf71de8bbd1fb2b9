import { rmSync } from 'node:fs';
import pg from 'pg';
import { adminQuery, RUN_ENV, runDatabasePrefix } from './test-run.mjs';

/** Drops the databases of this run (and only those), stops the embedded server, removes the run's folder. */
export default async function globalTeardown() {
  const serverUrl = process.env[RUN_ENV.serverUrl];
  if (serverUrl && !globalThis.__CIA_EMBEDDED_PG__) {
    const pattern = `${runDatabasePrefix().replaceAll('_', '\\_')}%`;
    const { rows } = await adminQuery(pg, serverUrl, 'SELECT datname FROM pg_database WHERE datname LIKE $1', [
      pattern,
    ]);
    for (const row of rows) await adminQuery(pg, serverUrl, `DROP DATABASE IF EXISTS "${row.datname}" WITH (FORCE)`);
  }
  await globalThis.__CIA_EMBEDDED_PG__?.stop();
  const tempDir = process.env[RUN_ENV.tempDir];
  if (tempDir) rmSync(tempDir, { recursive: true, force: true });
}

// Runs outside jest's module system, so it uses the compiled service (`npm test` builds first).
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { migrate } from '../../dist/database/data-source-options.js';
import { startEmbeddedPostgres } from '../../dist/database/embedded-postgres.js';
import { adminQuery, RUN_ENV, runDatabaseName, serverUrlWith } from './test-run.mjs';

/**
 * One PostgreSQL for the whole run: TEST_DATABASE_URL's server if set, else an embedded one in a
 * temporary directory. A migrated template database is made once; each test file copies it.
 *
 * Several runs may share one server (two developers, or CI and a developer, on one TEST_DATABASE_URL):
 * every database this run makes is named after a run id of its own, and the teardown drops only those.
 * Every temporary folder of the run lives under one folder, which the teardown removes.
 */
export default async function globalSetup() {
  const runId = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  process.env[RUN_ENV.runId] = runId;
  const tempDir = mkdtempSync(join(tmpdir(), `cia-test-${runId}-`));
  // As root, the embedded PostgreSQL runs as the `postgres` user, which must reach the folders below.
  if (process.getuid?.() === 0) chmodSync(tempDir, 0o755);
  process.env[RUN_ENV.tempDir] = tempDir;

  const given = process.env.TEST_DATABASE_URL?.trim();
  let serverUrl;
  if (given) {
    serverUrl = given;
    console.log(`\nTests use the PostgreSQL server of TEST_DATABASE_URL (${new URL(given).host}), run ${runId}.`);
  } else {
    const embedded = await startEmbeddedPostgres({ dataDir: mkdtempSync(join(tempDir, 'pg-')), persistent: false });
    globalThis.__CIA_EMBEDDED_PG__ = embedded;
    serverUrl = embedded.serverUrl;
    console.log('\nTests use an embedded PostgreSQL (set TEST_DATABASE_URL to use another server).');
  }
  process.env[RUN_ENV.serverUrl] = serverUrl;
  const template = runDatabaseName('template');
  await adminQuery(pg, serverUrl, `CREATE DATABASE "${template}"`);
  await migrate({ url: serverUrlWith(serverUrl, template) });
}

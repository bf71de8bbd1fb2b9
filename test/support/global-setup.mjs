// Runs outside jest's module system, so it uses the compiled service (`npm test` builds first).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { migrate } from '../../dist/database/data-source-options.js';
import { startEmbeddedPostgres } from '../../dist/database/embedded-postgres.js';

export const TEMPLATE_DATABASE = 'cia_test_template';

async function admin(url, sql) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * One PostgreSQL for the whole run: TEST_DATABASE_URL's server if set, else an embedded one in a
 * temporary directory. A migrated template database is made once; each test file copies it.
 */
export default async function globalSetup() {
  const given = process.env.TEST_DATABASE_URL?.trim();
  let serverUrl;
  if (given) {
    serverUrl = given;
    console.log(`\nTests use the PostgreSQL server of TEST_DATABASE_URL (${new URL(given).host}).`);
  } else {
    const embedded = await startEmbeddedPostgres({
      dataDir: mkdtempSync(join(tmpdir(), 'cia-test-pg-')),
      persistent: false,
    });
    globalThis.__CIA_EMBEDDED_PG__ = embedded;
    serverUrl = embedded.serverUrl;
    console.log('\nTests use an embedded PostgreSQL (set TEST_DATABASE_URL to use another server).');
  }
  process.env.CIA_TEST_SERVER_URL = serverUrl;
  const stale = await admin(serverUrl, `SELECT datname FROM pg_database WHERE datname LIKE 'cia\\_test\\_%'`);
  for (const row of stale.rows) await admin(serverUrl, `DROP DATABASE IF EXISTS "${row.datname}" WITH (FORCE)`);
  await admin(serverUrl, `CREATE DATABASE "${TEMPLATE_DATABASE}"`);
  const templateUrl = new URL(serverUrl);
  templateUrl.pathname = `/${TEMPLATE_DATABASE}`;
  await migrate({ url: templateUrl.toString() });
}

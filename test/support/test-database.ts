import pg from 'pg';

/** Set by global-setup: the PostgreSQL server the tests use and the migrated template database. */
export const TEST_SERVER_URL_VAR = 'CIA_TEST_SERVER_URL';
export const TEMPLATE_DATABASE = 'cia_test_template';

export function serverUrl(): string {
  const url = process.env[TEST_SERVER_URL_VAR];
  if (!url) throw new Error('The test database server is not set up (jest globalSetup did not run)');
  return url;
}

export function databaseUrl(database: string): string {
  const url = new URL(serverUrl());
  url.pathname = `/${database}`;
  return url.toString();
}

export async function adminQuery(sql: string, params: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: serverUrl() });
  await client.connect();
  try {
    return await client.query(sql, params);
  } finally {
    await client.end();
  }
}

let counter = 0;

/** A fresh, migrated database for one test file, copied from the template in milliseconds. */
export async function createTestDatabase(): Promise<string> {
  const name = `cia_test_${process.pid}_${Date.now().toString(36)}_${counter++}`;
  await adminQuery(`CREATE DATABASE "${name}" TEMPLATE "${TEMPLATE_DATABASE}"`);
  return databaseUrl(name);
}

export async function dropTestDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  if (!name.startsWith('cia_test_')) throw new Error(`refusing to drop ${name}: not a test database`);
  await adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
}

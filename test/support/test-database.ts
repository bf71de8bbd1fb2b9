import pg from 'pg';
import { adminQuery as query, RUN_ENV, runDatabaseName, runDatabasePrefix, serverUrlWith } from './test-run.mjs';

/** The PostgreSQL server of this run, set by the global setup. */
export function serverUrl(): string {
  const url = process.env[RUN_ENV.serverUrl];
  if (!url) throw new Error('The test database server is not set up (jest globalSetup did not run)');
  return url;
}

export function databaseUrl(database: string): string {
  return serverUrlWith(serverUrl(), database);
}

export async function adminQuery(sql: string, params: unknown[] = []): Promise<pg.QueryResult> {
  return query(pg, serverUrl(), sql, params);
}

let counter = 0;

/** A database name of this run that no other test file of the run uses. */
export function testDatabaseName(purpose = 'db'): string {
  return runDatabaseName(`${process.pid}_${counter++}_${purpose}`);
}

/** A fresh, migrated database for one test file, copied from the run's template in milliseconds. */
export async function createTestDatabase(): Promise<string> {
  const name = testDatabaseName();
  await adminQuery(`CREATE DATABASE "${name}" TEMPLATE "${runDatabaseName('template')}"`);
  return databaseUrl(name);
}

export async function dropTestDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  if (!name.startsWith(runDatabasePrefix())) throw new Error(`refusing to drop ${name}: not a database of this run`);
  await adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
}

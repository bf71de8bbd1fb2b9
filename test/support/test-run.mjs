// What identifies one test run: shared by the global setup and teardown (plain ESM, outside jest's
// module system) and the test files (through test-database.ts and temp-dir.ts).

/** Set by the global setup, inherited by jest's workers. */
export const RUN_ENV = {
  runId: 'CIA_TEST_RUN_ID',
  serverUrl: 'CIA_TEST_SERVER_URL',
  tempDir: 'CIA_TEST_TEMP_DIR',
};

function runId() {
  const id = process.env[RUN_ENV.runId];
  if (!id) throw new Error('The test run is not set up (jest globalSetup did not run)');
  return id;
}

/** Every database of this run starts with this, and no database of another run does. */
export function runDatabasePrefix() {
  return `cia_test_${runId()}_`;
}

export function runDatabaseName(suffix) {
  return `${runDatabasePrefix()}${suffix}`;
}

export function serverUrlWith(serverUrl, database) {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function adminQuery(pg, serverUrl, sql, params = []) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await client.query(sql, params);
  } finally {
    await client.end();
  }
}

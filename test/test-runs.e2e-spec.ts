import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { adminQuery, createTestDatabase, dropTestDatabase, serverUrl } from './support/test-database.js';

/**
 * Two test runs may share one PostgreSQL server (TEST_DATABASE_URL): each names its databases after a
 * run id of its own, drops only those, and removes its temporary folder. A second run is started here
 * in a child process, with the global setup and teardown jest uses, on this run's server.
 */
const SECOND_RUN = `
  import { mkdirSync, writeFileSync } from 'node:fs';
  import pg from 'pg';
  import setup from './test/support/global-setup.mjs';
  import teardown from './test/support/global-teardown.mjs';
  await setup();
  const runId = process.env.CIA_TEST_RUN_ID;
  const tempDir = process.env.CIA_TEST_TEMP_DIR;
  mkdirSync(tempDir + '/cia-import-left-behind');
  writeFileSync(tempDir + '/cia-import-left-behind/file.json', '{}');
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  const { rows } = await client.query("SELECT datname FROM pg_database WHERE datname LIKE 'cia\\\\_test\\\\_%' ORDER BY 1");
  await client.end();
  await teardown();
  console.log(JSON.stringify({ runId, tempDir, seen: rows.map((r) => r.datname) }));
`;

const databaseExists = async (name: string): Promise<boolean> =>
  (await adminQuery('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;

describe('test runs on one PostgreSQL server', () => {
  it('a second run makes databases of its own, drops only those, and removes its temporary folder', async () => {
    const mine = await createTestDatabase();
    const myName = new URL(mine).pathname.slice(1);
    try {
      const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, TEST_DATABASE_URL: serverUrl() };
      const out = execFileSync(process.execPath, ['--input-type=module', '-e', SECOND_RUN], { env }).toString();
      const second = JSON.parse(out.trim().split('\n').at(-1)!) as { runId: string; tempDir: string; seen: string[] };

      expect(second.runId).not.toBe(process.env.CIA_TEST_RUN_ID);
      // While both ran, the server held both runs' databases, each under its own run id.
      expect(second.seen).toContain(`cia_test_${second.runId}_template`);
      expect(second.seen).toContain(myName);
      // The second run's teardown dropped its own and left this run's alone.
      expect(await databaseExists(`cia_test_${second.runId}_template`)).toBe(false);
      expect(await databaseExists(myName)).toBe(true);
      expect(await databaseExists(`cia_test_${process.env.CIA_TEST_RUN_ID}_template`)).toBe(true);
      expect(existsSync(second.tempDir)).toBe(false);
    } finally {
      await dropTestDatabase(mine);
    }
  });

  it('refuses to drop a database that this run did not make', async () => {
    await expect(dropTestDatabase(`${serverUrl()}`.replace(/\/[^/]*$/, '/postgres'))).rejects.toThrow(
      /not a database of this run/,
    );
    expect(await databaseExists('postgres')).toBe(true);
  });
});

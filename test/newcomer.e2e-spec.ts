import { execFile } from 'node:child_process';
import { connect, createServer, type Server } from 'node:net';
import { promisify } from 'node:util';
import { freePort } from '../src/database/embedded-postgres.js';
import { runToExit, type ServerProcess, startServer } from './support/server-process.js';
import { testTempDir } from './support/temp-dir.js';
import { createTestDatabase, dropTestDatabase } from './support/test-database.js';

/**
 * `npm start` as a newcomer meets it: the built server on the embedded PostgreSQL of an empty
 * DATA_DIR (no DATABASE_URL), with the demo data set, and the mistakes a newcomer makes.
 */
const dataDir = testTempDir('newcomer');
const env = { DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
const DEMO = {
  erp: 'ck_test_DemoErpSyncKey0000000000000000000001',
  camden: 'ck_test_DemoCamdenWebsiteKey000000000000001',
  fjord: 'ck_test_DemoFjordErpKey000000000000000000001',
  disabledClient: 'ck_test_DemoQuickDropKey00000000000000000001',
  revokedKey: 'ck_test_DemoErpSyncKey0000000000000000000000',
};

async function welcome(server: ServerProcess): Promise<string> {
  for (let i = 0; i < 100 && !server.output().includes('Try it:'); i++) await new Promise((r) => setTimeout(r, 100));
  await new Promise((r) => setTimeout(r, 100));
  return server.output();
}

async function admin(...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, ['dist/tools/cli/admin.js', ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
  });
  return stdout;
}

describe('npm start on the embedded database', () => {
  let first: ServerProcess;
  beforeAll(async () => {
    first = await startServer(env, { withinMs: 90_000 });
  }, 120_000);
  afterAll(async () => {
    await first?.stop();
  });

  it('welcomes with the demo keys that work, and a curl line with one of them', async () => {
    const text = await welcome(first);
    const root = `http://localhost:${new URL(first.base).port}`;
    // One meaning of base URL: the server root, which the TypeScript client takes as it is printed.
    expect(text).toContain(`Base URL: ${root} (every API path starts with /v1`);
    expect(text).not.toMatch(/listening on \S+\/v1\b/);
    for (const key of [DEMO.erp, DEMO.camden, DEMO.fjord]) expect([key, text.includes(key)]).toEqual([key, true]);
    for (const key of [DEMO.disabledClient, DEMO.revokedKey]) expect([key, text.includes(key)]).toEqual([key, false]);
    expect(text).toContain(`curl -H "Authorization: Bearer ${DEMO.erp}"`);
  });

  it('a second copy on the same DATA_DIR says that another copy runs there and how to get past it', async () => {
    const { code, output } = await runToExit({ ...env, PORT: String(await freePort()) });
    expect(code).not.toBe(0);
    expect(output).not.toContain('Cannot read properties');
    expect(output).toMatch(/another copy of the service is running on this data directory/i);
    expect(output).toContain(dataDir);
    expect(output).toContain('DATA_DIR=');
  }, 60_000);

  it('a busy port is named, with the way out (PORT=…), before anything starts', async () => {
    const url = await createTestDatabase();
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const { code, output } = await runToExit({ DATABASE_URL: url, PORT: String(port) });
      expect(code).not.toBe(0);
      expect(output).toContain(
        `Port ${port} is already in use: another copy of the service, or another program, listens`,
      );
      expect(output).toMatch(/PORT=\d+ npm start/);
      expect(output).not.toContain('successfully started');
    } finally {
      blocker.close();
      await dropTestDatabase(url);
    }
  }, 60_000);

  it('a port held by an outgoing connection is told apart from one a program listens on', async () => {
    const url = await createTestDatabase();
    const peer: Server = createServer();
    await new Promise<void>((resolve) => peer.listen(0, '127.0.0.1', resolve));
    // The local end of this connection holds a port that nothing listens on.
    const outgoing = connect((peer.address() as { port: number }).port, '127.0.0.1');
    await new Promise((resolve) => outgoing.once('connect', resolve));
    const port = outgoing.localPort!;
    try {
      const { code, output } = await runToExit({ DATABASE_URL: url, PORT: String(port) });
      expect(code).not.toBe(0);
      expect(output).toContain(`Port ${port} is already in use, but nothing listens on it`);
      expect(output).not.toContain('listens on it. Stop it');
      expect(output).toMatch(/PORT=\d+ npm start/);
    } finally {
      outgoing.destroy();
      peer.close();
      await dropTestDatabase(url);
    }
  }, 60_000);

  it('after a demo key is revoked and a demo client disabled, the welcome no longer offers them', async () => {
    await admin('keys:revoke', 'key_cs_erp_1');
    await admin('clients:disable', 'cli_cs_web');
    expect(await first.stop()).toBe(0);
    first = await startServer(env, { withinMs: 90_000 });
    const text = await welcome(first);
    expect(text).not.toContain(DEMO.erp);
    expect(text).not.toContain(DEMO.camden);
    expect(text).toContain(DEMO.fjord);
    const offered = /curl -H "Authorization: Bearer (ck_test_\w+)"/.exec(text)![1];
    const res = await fetch(`${first.base}/v1/catalog/products?pageSize=1`, {
      headers: { Authorization: `Bearer ${offered}` },
    });
    expect(res.status).toBe(200);
  }, 120_000);

  it('on SIGTERM under load answers every request, then stops its embedded PostgreSQL and exits 0', async () => {
    expect(await first.stop()).toBe(0);
    const settings = { LOG_LEVEL: 'info', SHUTDOWN_DELAY_MS: '1000', RATE_LIMIT_PER_MINUTE: '1000000' };
    first = await startServer({ ...env, ...settings }, { withinMs: 90_000 });
    const url = `${first.base}/v1/catalog/products?pageSize=5`;
    const statuses: Record<string, number> = {};
    const failed: string[] = [];
    // Like a load balancer, the clients stop sending once the server says it is going away.
    let draining = false;
    const client = async (): Promise<void> => {
      while (!draining) {
        try {
          const res = await fetch(url, { headers: { Authorization: `Bearer ${DEMO.fjord}` } });
          await res.arrayBuffer();
          statuses[res.status] = (statuses[res.status] ?? 0) + 1;
          if (res.headers.get('connection') === 'close') draining = true;
        } catch (error) {
          failed.push(String((error as { cause?: { code?: string } }).cause?.code ?? error));
          draining = true;
        }
      }
    };
    const clients = Array.from({ length: 4 }, client);
    await new Promise((r) => setTimeout(r, 500));
    first.child.kill('SIGTERM');
    await Promise.all(clients);
    const code = await first.exit;
    // The embedded database stops after the drain, not at the signal: no 500, no reset connection.
    expect({ failed, other: Object.keys(statuses).filter((s) => s !== '200') }).toEqual({ failed: [], other: [] });
    expect(statuses[200]).toBeGreaterThan(10);
    expect(code).toBe(0);
    expect(first.output()).toContain('shut down cleanly');
  }, 120_000);
});

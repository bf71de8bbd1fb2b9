import { createServer, type Server, type Socket } from 'node:net';
import { freePort } from '../../../src/database/embedded-postgres.js';
import { KEYS } from '../../../test/support/dataset.js';
import { type PostgresServer, startPostgresServer } from '../../../test/support/postgres-server.js';
import { nextLink, prepareDatabase, type Service, sleep, startService } from '../../../test/support/sync-harness.js';
import { ApiConnectionError, createClient } from '../src/index.js';
import { recordingClient } from './support/service.js';

/**
 * Faults as faults: the service's PostgreSQL (one of the test's own) stops in the middle of a walk
 * and comes back (5xx meanwhile), the service itself goes away and comes back on the same port
 * (connection refused meanwhile), and a server accepts connections but never answers. The client,
 * with its default settings, retries the first two until they succeed; the last ends in an
 * ApiConnectionError after its retries, and an abort ends a call at once.
 */
let database: PostgresServer;
let url: string;
beforeAll(async () => {
  database = await startPostgresServer();
  url = await prepareDatabase(database);
});
afterAll(async () => database.stop());

/** Every product id of tenant A (inactive ones included), by a walk without the client. */
async function productIds(base: string): Promise<string[]> {
  const ids: string[] = [];
  let path: string | undefined = '/v1/catalog/products?activeOnly=false&pageSize=100';
  while (path !== undefined) {
    const res = await fetch(base + path, { headers: { Authorization: `Bearer ${KEYS.tenantA}` } });
    ids.push(...((await res.json()) as { rows: { id: string }[] }).rows.map((row) => row.id));
    path = nextLink(res.headers.get('link'));
  }
  return ids;
}

it('retries 5xx while the database is away, and a walk across the outage returns exactly every row', async () => {
  const service = await startService(url);
  let back: Promise<void> | undefined;
  try {
    const expected = await productIds(service.base);
    const { client, exchanges, waits } = recordingClient({ baseUrl: service.base, apiKey: KEYS.tenantA });
    const seen: string[] = [];
    for await (const product of client.products.list({ activeOnly: false, pageSize: 5 })) {
      seen.push(product.id);
      if (seen.length === 10) {
        await database.halt();
        back = sleep(3000).then(() => database.resume());
      }
    }
    expect(seen).toEqual(expected);
    const failed = exchanges.filter((e) => e.status >= 500);
    expect(failed.length).toBeGreaterThan(0);
    expect(waits.filter((w) => w.reason === 'server_error').map((w) => w.status)).toEqual(failed.map((e) => e.status));
    // Exponential backoff with equal jitter (defaults: 500 ms doubling): between half and all of it.
    for (const { attempt, delayMs } of waits) {
      expect(delayMs).toBeGreaterThanOrEqual(250 * 2 ** (attempt - 1));
      expect(delayMs).toBeLessThanOrEqual(500 * 2 ** (attempt - 1));
    }
    expect(exchanges.at(-1)?.status).toBe(200);
  } finally {
    // The database is back for the next test even when this one failed.
    await back;
    await service.close();
  }
}, 60_000);

it('retries network errors while the service is down, until it answers again', async () => {
  const port = await freePort();
  let service: Service = await startService(url, { port });
  const { client, exchanges, waits } = recordingClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: KEYS.tenantA });
  let back: Promise<void> | undefined;
  try {
    const before = await client.categories.list();
    await service.close();
    back = sleep(2000).then(async () => {
      service = await startService(url, { port });
    });
    const after = await client.categories.list();
    expect(after).toEqual(before);
    expect(exchanges.filter((e) => e.status === 0).length).toBeGreaterThan(0);
    expect(waits.map((w) => w.reason)).toEqual(exchanges.filter((e) => e.status === 0).map(() => 'network_error'));
    expect(exchanges.at(-1)?.status).toBe(200);
  } finally {
    await back;
    await service.close();
  }
}, 60_000);

describe('a server that never answers', () => {
  let server: Server;
  let base: string;
  /** Requests received (undici may open a spare connection that sends nothing). */
  let requests = 0;
  const sockets = new Set<Socket>();
  beforeAll(async () => {
    server = createServer((socket) => {
      socket.on('data', (chunk: Buffer) => (requests += chunk.toString('latin1').split('GET /v1/').length - 1));
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it('each attempt times out, is retried, and the call ends in an ApiConnectionError', async () => {
    requests = 0;
    const client = createClient({
      baseUrl: base,
      apiKey: KEYS.tenantA,
      timeoutMs: 300,
      retry: { maxRetries: 2, initialDelayMs: 50 },
    });
    const error = await client.categories.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiConnectionError);
    expect(error).toMatchObject({
      attempts: 3,
      message: expect.stringMatching(/could not be reached in 3 attempt\(s\)/),
    });
    expect(requests).toBe(3);
  });

  it('an abort ends the call at once, with the abort reason, and nothing is retried', async () => {
    requests = 0;
    const client = createClient({ baseUrl: base, apiKey: KEYS.tenantA });
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(new Error('stopped by the caller')), 200);
    await expect(client.categories.list({}, { signal: controller.signal })).rejects.toThrow('stopped by the caller');
    // The default timeout (30 s) and retries would otherwise keep it going for minutes.
    expect(Date.now() - started).toBeLessThan(5000);
    expect(requests).toBe(1);
  });
});

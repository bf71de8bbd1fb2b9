import type { QueryRunner } from 'typeorm';
import { KEYS, testDataset } from './support/dataset.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * Admission by cost (docs/rate-limits.md#admission-by-cost): cheap reads keep connections of their
 * own whatever expensive reads do; an expensive read that gets no capacity within the short
 * admission wait is a 429 with Retry-After, never a 500 at the deadline; and one client cannot hold
 * all of the expensive capacity. The expensive reads are made slow deliberately: the categories
 * table is locked, so that every category list waits on the lock until the test lets it go.
 * Outcomes are counted; nothing is timed.
 */
interface Outcome {
  status: number;
  code?: string;
  retryAfter?: string;
}

const outcome = (req: PromiseLike<{ status: number; body: unknown; headers: Record<string, string> }>) =>
  Promise.resolve(req).then((res): Outcome => ({
    status: res.status,
    code: (res.body as { error?: { code: string } }).error?.code,
    retryAfter: res.headers['retry-after'],
  }));

/** Polls `done` every 50 ms, up to `limitMs` (a bound for a fault, not a measure). */
async function until(done: () => boolean | Promise<boolean>, limitMs: number): Promise<void> {
  const end = Date.now() + limitMs;
  while (!(await done()) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
}

const statuses = (outcomes: Outcome[]) =>
  outcomes.reduce<Record<number, number>>((n, o) => ({ ...n, [o.status]: (n[o.status] ?? 0) + 1 }), {});

describe('admission by cost', () => {
  let t: TestApp;
  let lock: QueryRunner | null = null;

  const lockCategories = async (): Promise<void> => {
    lock = t.db.createQueryRunner();
    await lock.startTransaction();
    await lock.query('LOCK TABLE categories IN ACCESS EXCLUSIVE MODE');
  };
  const unlock = async (): Promise<void> => {
    if (lock === null) return;
    await lock.commitTransaction();
    await lock.release();
    lock = null;
  };
  /** The service's statements waiting on the lock. */
  const waitingOnLock = async (): Promise<number> => {
    const [{ n }] = await t.db.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock' AND application_name = $1`,
      ['catalog-inventory-read-api'],
    );
    return n;
  };

  afterEach(async () => {
    await unlock();
    await t?.close();
  });

  it('answers cheap reads while expensive ones hold their capacity, and refuses the overflow with 429 and Retry-After', async () => {
    // 4 connections, 2 kept for cheap reads: 2 expensive reads at once, both of this one client.
    t = await createTestApp({
      dataset: testDataset(),
      env: {
        DB_POOL_SIZE: '4',
        DB_STATEMENT_TIMEOUT_MS: '3000',
        ADMISSION_EXPENSIVE_READS: '2',
        ADMISSION_EXPENSIVE_PER_CLIENT: '2',
        ADMISSION_WAIT_MS: '100',
      },
    });
    await lockCategories();
    const answered: Outcome[] = [];
    const expensive = Array.from({ length: 6 }, () =>
      outcome(t.get('/v1/catalog/categories', KEYS.tenantA)).then((o) => {
        answered.push(o);
        return o;
      }),
    );
    // The 4 that found no capacity are answered while the other 2 still wait on the lock.
    await until(() => answered.length >= 4, 10_000);
    const early = [...answered];
    const cheap = [
      await outcome(t.get('/v1/catalog/products/prd_a1_cola', KEYS.tenantA)),
      await outcome(t.get('/v1/catalog/products?pageSize=2', KEYS.tenantA)),
      await outcome(t.get('/v1/inventory/stock?pageSize=2', KEYS.tenantA)),
    ];
    // A search is expensive: no capacity for it now.
    const search = await outcome(t.get('/v1/catalog/products?q=cola', KEYS.tenantA));
    await unlock();
    const all = await Promise.all(expensive);

    expect(cheap.map((o) => o.status)).toEqual([200, 200, 200]);
    expect(early.map((o) => o.status)).toEqual([429, 429, 429, 429]);
    expect(statuses(all)).toEqual({ 200: 2, 429: 4 });
    expect(search).toMatchObject({ status: 429, code: 'rate_limited' });
    for (const refused of [...early, search]) {
      expect(refused.code).toBe('rate_limited');
      expect(refused.retryAfter).toMatch(/^[1-9][0-9]*$/);
    }
    // Once the capacity is free again, a search is admitted.
    expect((await outcome(t.get('/v1/catalog/products?q=cola', KEYS.tenantA))).status).toBe(200);
    // Counted beside the budgets' refusals: 4 of the 6 and the search.
    const metrics = (await t.http().get('/metrics').expect(200)).text;
    expect(metrics).toMatch(/^rate_limited_requests_total\{policy="admission"\} 5$/m);
  });

  it('lets a lone client use the whole expensive capacity at the default settings (issue 31, item 4)', async () => {
    // 6 connections: 4 expensive reads at once by default. Until issue 31 one client ran 1 at a time
    // (ADMISSION_EXPENSIVE_PER_CLIENT defaulted to 1) however idle the rest of the capacity was.
    t = await createTestApp({ dataset: testDataset(), env: { DB_POOL_SIZE: '6', DB_STATEMENT_TIMEOUT_MS: '20000' } });
    await lockCategories();
    const reads = Array.from({ length: 4 }, () => outcome(t.get('/v1/catalog/categories', KEYS.tenantA)));
    // Admitted, each waits on the lock (a bound for a fault: 4 are admitted at once or never).
    await until(async () => (await waitingOnLock()) >= 4, 5_000);
    const admitted = await waitingOnLock();
    await unlock();
    expect(admitted).toBe(4);
    expect(statuses(await Promise.all(reads))).toEqual({ 200: 4 });
  });

  it("admits another client's expensive read while one client floods the expensive capacity", async () => {
    // 6 connections, 2 kept for cheap reads: 4 expensive reads at once, at most 2 of one client.
    t = await createTestApp({
      dataset: testDataset(),
      env: {
        DB_POOL_SIZE: '6',
        DB_STATEMENT_TIMEOUT_MS: '20000',
        ADMISSION_EXPENSIVE_READS: '4',
        ADMISSION_EXPENSIVE_PER_CLIENT: '2',
        ADMISSION_WAIT_MS: '100',
      },
    });
    await lockCategories();
    let floodAnswered = 0;
    const flood = Array.from({ length: 4 }, () =>
      outcome(t.get('/v1/catalog/categories', KEYS.tenantA)).then((o) => {
        floodAnswered++;
        return o;
      }),
    );
    // The flood has settled: each of its reads is answered or waits on the lock.
    await until(async () => floodAnswered + (await waitingOnLock()) >= 4, 10_000);
    const before = await waitingOnLock();
    let other: Outcome | undefined;
    const otherRead = outcome(t.get('/v1/catalog/categories', KEYS.tenantB)).then((o) => (other = o));
    // Admitted, the other client's read waits on the lock beside the flood's (which hold their
    // capacity for 20 s: the bound below is well within it).
    let admitted = false;
    await until(async () => (admitted = (await waitingOnLock()) > before) || other !== undefined, 5_000);
    await unlock();
    await otherRead;
    expect(admitted).toBe(true);
    expect(other?.status).toBe(200);
    expect(statuses(await Promise.all(flood))).toEqual({ 200: 2, 429: 2 });
  });
});

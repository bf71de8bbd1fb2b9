import { KEYS } from '../../../test/support/dataset.js';
import type { TestApp } from '../../../test/support/test-app.js';
import type { Category, WaitEvent } from '../src/index.js';
import { type Exchange, listeningTestApp, recordingClient } from './support/service.js';

/**
 * The client under a budget of 5 requests a minute (RATE_LIMIT_PER_MINUTE=5; a client that goes over
 * is refused for 60 s). Without pacing, the 6th request is refused with a 429: the client waits
 * Retry-After and succeeds. With pacing (the default), it reads the RateLimit header, waits for the
 * window's end when the budget is spent, and is never refused.
 *
 * Both scenarios take a rate-limit window (up to a minute); they use two API clients (separate
 * budgets), so beforeAll starts them together and each test awaits and checks its own.
 */
let t: TestApp;
let base: string;

interface Outcome {
  results: Category[][];
  exchanges: Exchange[];
  waits: WaitEvent[];
}

/** `calls` requests one after the other by a recording client (failures are part of the outcome). */
async function run(key: string, pace: boolean, calls: number): Promise<Outcome> {
  const { client, exchanges, waits } = recordingClient({ baseUrl: base, apiKey: key, rateLimit: { pace } });
  const results: Category[][] = [];
  for (let i = 0; i < calls; i++) results.push(await client.categories.list());
  return { results, exchanges, waits };
}

let refusedFirst: Promise<Outcome>;
let pacedFirst: Promise<Outcome>;
beforeAll(async () => {
  ({ t, base } = await listeningTestApp({ RATE_LIMIT_PER_MINUTE: '5' }));
  refusedFirst = run(KEYS.tenantA, false, 6);
  pacedFirst = run(KEYS.tenantB, true, 8);
  // Awaited by the tests below; until then a failure must not count as an unhandled rejection.
  refusedFirst.catch(() => undefined);
  pacedFirst.catch(() => undefined);
});
afterAll(async () => {
  await Promise.allSettled([refusedFirst, pacedFirst]);
  await t.close();
});

it('waits Retry-After after a 429 and then succeeds', async () => {
  const { results, exchanges, waits } = await refusedFirst;
  expect(exchanges.map((e) => e.status)).toEqual([200, 200, 200, 200, 200, 429, 200]);
  const [refused, retried] = exchanges.slice(5);
  const retryAfterMs = Number(refused.retryAfter) * 1000;
  expect(retryAfterMs).toBeGreaterThanOrEqual(1000);
  expect(waits).toEqual([{ reason: 'rate_limited', delayMs: retryAfterMs, attempt: 1, status: 429 }]);
  expect(retried.sentAt - refused.sentAt).toBeGreaterThanOrEqual(retryAfterMs);
  expect(results[0].map((c) => c.id)).toContain('cat_a1_drinks');
  expect(results).toEqual(Array(6).fill(results[0]));
}, 150_000);

it('paces itself from the RateLimit header and is never refused', async () => {
  const { results, exchanges, waits } = await pacedFirst;
  expect(exchanges.map((e) => e.status)).toEqual(Array(8).fill(200));
  // After the 5th answer (RateLimit r=0), one wait until the window ends, then the next window.
  expect(waits.map((w) => w.reason)).toEqual(['pacing']);
  expect(waits[0].delayMs).toBeGreaterThan(0);
  expect(waits[0].delayMs).toBeLessThanOrEqual(60_250);
  expect(exchanges[5].sentAt - exchanges[4].sentAt).toBeGreaterThanOrEqual(waits[0].delayMs - 5);
  expect(results[7].map((c) => c.id)).toEqual(['cat_b1_drinks']);
}, 150_000);

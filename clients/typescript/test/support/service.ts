import type { AddressInfo } from 'node:net';
import { createClient, type Client, type ClientOptions, type FetchLike, type WaitEvent } from '../../src/index.js';
import { testDataset } from '../../../../test/support/dataset.js';
import { createTestApp, type TestApp } from '../../../../test/support/test-app.js';

/** The service (test/support/test-app.ts) on a fresh database with the test data set, listening on a free port. */
export async function listeningTestApp(env: Record<string, string> = {}): Promise<{ t: TestApp; base: string }> {
  const t = await createTestApp({ dataset: testDataset(), env });
  await t.app.listen(0, '127.0.0.1');
  return { t, base: `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}` };
}

/** One request as the client sent it and what became of it. */
export interface Exchange {
  url: string;
  sentAt: number;
  /** The status, or 0 for a network error. */
  status: number;
  /** The Retry-After header, if any. */
  retryAfter: string | null;
}

/** A client whose requests, answers and waits are recorded, for tests that assert on them. */
export function recordingClient(options: ClientOptions): { client: Client; exchanges: Exchange[]; waits: WaitEvent[] } {
  const exchanges: Exchange[] = [];
  const waits: WaitEvent[] = [];
  const recordingFetch: FetchLike = async (url, init) => {
    const exchange: Exchange = { url, sentAt: Date.now(), status: 0, retryAfter: null };
    exchanges.push(exchange);
    const response = await fetch(url, init);
    exchange.status = response.status;
    exchange.retryAfter = response.headers.get('Retry-After');
    return response;
  };
  const client = createClient({ ...options, fetch: recordingFetch, onWait: (event) => waits.push(event) });
  return { client, exchanges, waits };
}

/** GET with a key, without the client: what the service answers. */
export async function raw(
  base: string,
  path: string,
  key: string,
): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(base + path, { headers: { Authorization: `Bearer ${key}` } });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

/** Compiles only when T is `true`: `assertType<Equal<typeof value, Expected>>()`. */
export function assertType<T extends true>(): T | void {}

/** Whether two types are identical (not merely assignable). */
export type Equal<X, Y> = (<T>() => T extends X ? 1 : 2) extends <T>() => T extends Y ? 1 : 2 ? true : false;

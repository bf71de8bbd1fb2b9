import { jest } from '@jest/globals';
import type { Request } from 'express';
import { AdmissionRefused, FairScheduler, type SchedulerLimits } from '../admission/fair-scheduler.js';
import { loadConfig } from '../config/app-config.js';
import { DatabaseBusyError, DatabaseOverloadedError } from '../database/deadline.js';
import type { ReadOptions, ReadSession, SqlReader } from '../database/sql-reader.js';
import { digestKey } from '../values/api-key-format.js';
import { ApiKeyService } from './api-key.service.js';
import { ApiKeysRepository, type KeyRow } from './api-keys.repository.js';
import { CallerResolver } from './caller-resolver.js';

/** A small linear congruential generator: the same sequence for the same seed. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const TTL_MS = 2000;
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

const rowOf = (clientId: string): KeyRow => ({
  key_id: `key_${clientId}`,
  client_id: clientId,
  tenant_id: 'ten_a',
  status: 'ACTIVE',
  scopes: ['catalog.products.read'],
  allowed_store_ids: null,
  rate_limit_per_minute: null,
  expires_at: null,
  revoked_at: null,
});

/** What a waiting lookup of one (real) client met at the scheduler. */
interface Wait {
  /** Who really made it: an API client (`polite …`) or an address (`address …`). */
  readonly owner: string;
  /** Other real clients holding or waiting for a connection of the lane when it came. */
  readonly others: number;
  /** Reads granted before it while it waited; -1 until granted. */
  grantsBefore: number;
  refused: boolean;
}

/**
 * The keys service on a pool whose reads the test ends one at a time: the real ApiKeyService,
 * ApiKeysRepository and CallerResolver, and a SqlReader stand-in that admits each read through a real
 * FairScheduler exactly as SqlReader does (`options.client`, '' when none), and records, for every
 * read that has to wait, how many reads were granted before it.
 */
function keysOnPool(limits: SchedulerLimits, rows: Map<string, KeyRow>, owners: Map<string, string>) {
  const scheduler = new FairScheduler(limits);
  const running: (() => void)[] = [];
  const present = new Map<string, number>();
  const waits: Wait[] = [];
  let grants = 0;
  let lookups = 0;
  let owner = '';
  const reader = {
    async read<T>(deadlineMs: number, options: ReadOptions, work: (session: ReadSession) => Promise<T>): Promise<T> {
      const mine = owner;
      const name = options.client ?? '';
      const others = [...present].filter(([who, n]) => who !== mine && n > 0).length;
      present.set(mine, (present.get(mine) ?? 0) + 1);
      let admitted = false;
      try {
        if (!scheduler.tryAcquire(name, options.cost)) {
          const wait: Wait = { owner: mine, others, grantsBefore: -1, refused: false };
          waits.push(wait);
          const grantsAtStart = grants;
          try {
            await scheduler.acquire(name, options.cost, deadlineMs);
          } catch (error) {
            wait.refused = true;
            if (!(error instanceof AdmissionRefused)) throw error;
            throw error.refusal === 'client' ? new DatabaseBusyError(1) : new DatabaseOverloadedError(1);
          }
          wait.grantsBefore = grants - grantsAtStart;
        }
        admitted = true;
        grants++;
        lookups++;
        await new Promise<void>((resolve) => running.push(resolve));
        return await work({
          rows: <R>(_statement: unknown, values: readonly unknown[]) =>
            Promise.resolve((rows.has(values[0] as string) ? [rows.get(values[0] as string)] : []) as R[]),
          tuples: () => Promise.reject(new Error('a key lookup reads object rows')),
        });
      } finally {
        present.set(mine, present.get(mine)! - 1);
        if (admitted) scheduler.release(name, options.cost);
      }
    },
  };
  const repository = new ApiKeysRepository(reader as unknown as SqlReader);
  // Who each read is for, as the test knows it (the service names it its own way): set as the
  // repository starts the read, which the reader takes synchronously.
  const find = repository.findByDigest.bind(repository);
  repository.findByDigest = ((...args: Parameters<typeof find>) => {
    owner = owners.get(args[0]) ?? 'nobody';
    return find(...args);
  }) as typeof find;
  const config = loadConfig({ DATABASE_URL: 'postgres://test@127.0.0.1:5432/test' }, { authCacheTtlMs: TTL_MS });
  const service = new ApiKeyService(repository, config);
  const callers = new CallerResolver(service);
  return {
    callers,
    waits,
    lookups: () => lookups,
    running: () => running.length,
    /** Ends the read that started `index`-th among those running now. */
    end: (index: number) => running.splice(index, 1)[0](),
  };
}

const requestOf = (key: string, ip: string) =>
  ({ headers: { authorization: `Bearer ${key}` }, ip, socket: { remoteAddress: ip } }) as unknown as Request;

describe('key lookups at the fair scheduler (KEYS_SEED)', () => {
  const seed = Number(process.env.KEYS_SEED ?? Math.floor(Math.random() * 2 ** 31));
  beforeEach(() => {
    jest.useFakeTimers({ now: new Date('2026-11-26T12:00:00.000Z'), doNotFake: ['setImmediate', 'nextTick'] });
  });
  afterEach(() => jest.useRealTimers());

  it("a client's key lookup waits only behind its fair share of the lane, whoever floods lookups of unknown keys", async () => {
    console.log(`KEYS_SEED=${seed}`);
    const random = seeded(seed);
    const problems: string[] = [];
    let politeWaits = 0;
    for (let run = 0; run < 20 && problems.length === 0; run++) {
      const limits: SchedulerLimits = {
        capacity: 1 + Math.floor(random() * 4),
        expensive: 1,
        expensivePerClient: 1,
        // No wait ends in this test (its timers never fire): what is measured is the order of grants.
        waitMs: 60_000,
        targetMs: 60_000,
        intervalMs: 100,
        queuePerClient: 32,
        queueLimit: 128,
      };
      const rows = new Map<string, KeyRow>();
      const owners = new Map<string, string>();
      const polite = Array.from({ length: 1 + Math.floor(random() * 3) }, (_, i) => {
        const key = `ck_test_PoliteClient${run}x${i}${'0'.repeat(20)}`;
        rows.set(digestKey(key), rowOf(`cli_polite_${i}`));
        owners.set(digestKey(key), `polite ${i}`);
        return { key, ip: `127.0.0.${10 + i}`, answers: [] as (string | null)[] };
      });
      const addresses = 2 + Math.floor(random() * 18);
      const pool = keysOnPool(limits, rows, owners);
      const at = (step: number) => `KEYS_SEED=${seed} run ${run} (${JSON.stringify(limits)}), step ${step}`;
      const pending: Promise<unknown>[] = [];
      const ask = (key: string, ip: string, answers?: (string | null)[]) => {
        const answer = pool.callers.resolve(requestOf(key, ip)).then(
          (caller) => answers?.push(caller?.clientId ?? null),
          (error: Error) => answers?.push(`refused: ${error.name}`),
        );
        pending.push(answer);
      };
      // Each polite key is known before the flood (its first lookup, alone).
      for (const p of polite) ask(p.key, p.ip);
      for (let step = 0; step < 400; step++) {
        const r = random();
        if (r < 0.45) {
          // A burst of unknown, well-formed keys from one address, each within its address's budget.
          const address = Math.floor(random() * addresses);
          for (let n = 1 + Math.floor(random() * 8); n > 0; n--) {
            let key = 'ck_test_';
            for (let i = 0; i < 40; i++) key += LETTERS[Math.floor(random() * LETTERS.length)];
            owners.set(digestKey(key), `address ${address}`);
            ask(key, `127.0.1.${address}`);
          }
        } else if (r < 0.6) {
          // A polite client: one to three requests at once (they share one lookup when its entry is stale).
          const p = polite[Math.floor(random() * polite.length)];
          for (let n = 1 + Math.floor(random() * 3); n > 0; n--) ask(p.key, p.ip, p.answers);
        } else if (r < 0.95) {
          if (pool.running() > 0) pool.end(Math.floor(random() * pool.running()));
        } else {
          jest.setSystemTime(Date.now() + Math.floor(random() * TTL_MS));
        }
        await flush();
        for (const wait of pool.waits.filter((w) => w.owner.startsWith('polite'))) {
          if (wait.refused || wait.grantsBefore >= 0) politeWaits++;
          if (wait.refused) problems.push(`${at(step)}: a lookup of ${wait.owner} was refused`);
          else if (wait.grantsBefore > wait.others)
            problems.push(
              `${at(step)}: a lookup of ${wait.owner} waited behind ${wait.grantsBefore} reads of others; ` +
                `its fair share lets each of the ${wait.others} other clients there go first once`,
            );
        }
        pool.waits.splice(0, pool.waits.length, ...pool.waits.filter((w) => w.grantsBefore < 0 && !w.refused));
        if (problems.length > 0) break;
      }
      while (pool.running() > 0) {
        pool.end(0);
        await flush();
      }
      await Promise.all(pending);
      for (const [i, p] of polite.entries()) {
        const wrong = p.answers.filter((answer) => answer !== `cli_polite_${i}`);
        if (wrong.length > 0) problems.push(`KEYS_SEED=${seed} run ${run}: polite ${i} was answered ${wrong[0]}`);
      }
    }
    expect(problems.slice(0, 3)).toEqual([]);
    // Not vacuous: polite lookups did wait, behind floods.
    expect(politeWaits).toBeGreaterThan(10);
  });

  /** The keys service on a reader that answers each read at once (`refuse` says which to refuse). */
  const keysOnReader = (rows: Map<string, KeyRow>, refuse: (read: number) => boolean = () => false) => {
    let reads = 0;
    const reader = {
      read: <T>(_deadlineMs: number, _options: ReadOptions, work: (session: ReadSession) => Promise<T>): Promise<T> =>
        refuse(reads++)
          ? Promise.reject(new DatabaseBusyError(1))
          : work({
              rows: <R>(_statement: unknown, values: readonly unknown[]) =>
                Promise.resolve((rows.has(values[0] as string) ? [rows.get(values[0] as string)] : []) as R[]),
              tuples: () => Promise.reject(new Error('a key lookup reads object rows')),
            }),
    };
    const config = loadConfig({ DATABASE_URL: 'postgres://test@127.0.0.1:5432/test' }, { authCacheTtlMs: TTL_MS });
    const service = new ApiKeyService(new ApiKeysRepository(reader as unknown as SqlReader), config);
    return { callers: new CallerResolver(service), service, reads: () => reads };
  };
  const KEY = 'ck_test_ValidKeyOfAPoliteClient000000000001';

  it('a shared lookup refused admission is refused to the request that made it only: the others look again', async () => {
    const keys = keysOnReader(new Map([[digestKey(KEY), rowOf('cli_polite')]]), (read) => read === 0);
    const answers = await Promise.all(
      [1, 2, 3].map((i) =>
        keys.callers.resolve(requestOf(KEY, `127.0.0.${i}`)).then(
          (caller) => caller?.clientId ?? null,
          (error: Error) => error.name,
        ),
      ),
    );
    // Before, all three were refused (429) with the one lookup they shared.
    expect({ answers, reads: keys.reads() }).toEqual({
      answers: ['DatabaseBusyError', 'cli_polite', 'cli_polite'],
      reads: 2,
    });
  });

  it('unknown keys evict only each other from the key cache, never a valid key', async () => {
    const keys = keysOnReader(new Map([[digestKey(KEY), rowOf('cli_polite')]]));
    expect((await keys.callers.resolve(requestOf(KEY, '127.0.0.1')))?.clientId).toBe('cli_polite');
    for (let batch = 0; batch < 12; batch++)
      await Promise.all(
        Array.from({ length: 1000 }, (_, i) =>
          keys.callers.resolve(requestOf(`ck_test_Unknown${String(batch * 1000 + i).padStart(30, '0')}`, '127.0.1.1')),
        ),
      );
    const before = keys.reads();
    // Still cached (no read), and still the client the request gate names its requests by.
    expect((await keys.callers.resolve(requestOf(KEY, '127.0.0.1')))?.clientId).toBe('cli_polite');
    expect({ reads: keys.reads() - before, known: keys.service.knownClient(KEY) }).toEqual({
      reads: 0,
      known: 'cli_polite',
    });
  });
});

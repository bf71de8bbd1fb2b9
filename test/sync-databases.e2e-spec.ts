import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { SERVER_STARTED_SQL } from '../src/schema/sync-state.js';
import { KEYS } from './support/dataset.js';
import { ownServers, writerProducts, writerWrites } from './support/own-servers.js';
import { pgTool, type PostgresServer } from './support/postgres-server.js';
import {
  advanceTransactions,
  type Difference,
  nextTransaction,
  query,
  RecipeCopy,
  type Refusal,
  REFUSED,
  until,
} from './support/sync-copy.js';
import { prepareDatabase, type Route, seededRandom, type Service, sleep, Writer } from './support/sync-harness.js';

/**
 * A copy kept by the recipe of docs/sync.md never drifts silently from the database the service reads,
 * whatever happens to that database (docs/sync.md#how-the-service-guarantees-it): each test runs
 * PostgreSQL servers of its own (Debian's binaries) and points the service at them.
 *
 * - A round read from a hot standby that replays a change between two statements of its first page
 *   (made deterministic: a replayed ACCESS EXCLUSIVE lock holds the later statement while replay is
 *   paused) still brings the change: a VAT-rate edit, an allow-list widening.
 * - After a failover to a standby that missed commits, and after a restore (into a new database of the
 *   same cluster, and into a new cluster), every position handed out before is refused (a 400 naming
 *   changedSince that says to take a full copy), also once the new database has run past it; a full
 *   walk then makes the copy equal again and rounds work.
 * - A server started from a copy of its files (a cold copy, a snapshot) keeps every identity a position
 *   names but went back in time: every position handed out under the server's run before refused, also
 *   once it has run past them, and so is one handed out before a plain restart (the two cannot be told
 *   apart). In generated orders of writes, rounds, restarts, copies and starts from them, under one
 *   running service, no copy ever drifts.
 * - A database fed by a logical-replication subscription (the loss test's writer on the publisher,
 *   a transaction held open across rounds, a TRUNCATE of stock_levels) serves copies that lose
 *   nothing: the recipe (a round, or a full walk when refused) ends with copies equal to a full walk.
 *
 * The writer is seeded (SYNC_SEED=n replays a run; the seed is printed).
 */
const runFile = promisify(execFile);
const SEED = Number(process.env.SYNC_SEED ?? Math.floor(Math.random() * 2 ** 31));
process.env.SYNC_SEED = String(SEED); // the Writer reads it
const ROUTES_OF_COPIES: readonly Route[] = ['products', 'stock'];

// A statement held by a replayed lock waits as long as the test pauses replay: no deadline in between.
const { server, service, pool, dir } = ownServers({ DB_STATEMENT_TIMEOUT_MS: '60000' });
const writes = writerWrites;

beforeAll(() => {
  console.log(`sync-databases: SYNC_SEED=${SEED}`);
});

/** A copy of each list for a key of every store and a key limited to stores. */
function copiesFor(on: Service): RecipeCopy[] {
  return [KEYS.tenantA, KEYS.tenantAStore1].flatMap((key) => ROUTES_OF_COPIES.map((r) => new RecipeCopy(on, r, key)));
}

/**
 * How each copy differs from a fresh full walk. A copy kept with the key limited to stores may hold
 * rows that went out of its view (the writer narrows it): only the rows the walk returns count there.
 */
async function differences(
  copies: readonly RecipeCopy[],
): Promise<Record<string, { differing: number; first: Difference[] }>> {
  const found: Record<string, { differing: number; first: Difference[] }> = {};
  for (const copy of copies) {
    const differing = await copy.differences({ extra: copy.key === KEYS.tenantA });
    if (differing.length > 0) {
      found[`${copy.route} of ${copy.key}`] = { differing: differing.length, first: differing.slice(0, 2) };
    }
  }
  return found;
}

/**
 * A server of the test's own with the data set, a service on it, and copies that took a full walk,
 * then a round after 12 writes.
 */
async function syncedCopies(db: PostgresServer): Promise<{ url: string; running: Service; copies: RecipeCopy[] }> {
  const url = await prepareDatabase(db);
  const running = await service(url);
  const copies = copiesFor(running);
  for (const copy of copies) await copy.fullWalk();
  await writes(url, 12);
  for (const copy of copies) expect(await copy.round()).toBeNull();
  return { url, running, copies };
}

/** What the service answers to each position a copy was handed before (all of them, in one table). */
async function answers(copies: readonly RecipeCopy[], positions: ReadonlyMap<RecipeCopy, readonly string[]>) {
  const found: { copy: string; position: string; status: number; refusal: Refusal | null }[] = [];
  for (const copy of copies) {
    for (const position of positions.get(copy) ?? []) {
      const { status, refusal } = await copy.tryPosition(position);
      found.push({ copy: `${copy.route} of ${copy.key}`, position, status, refusal });
    }
  }
  return found;
}

/** How many positions got each status: the line a run prints (what the assertion's diff spells out). */
const statuses = (found: Awaited<ReturnType<typeof answers>>): string =>
  JSON.stringify(found.reduce<Record<number, number>>((n, a) => ({ ...n, [a.status]: (n[a.status] ?? 0) + 1 }), {}));

const allRefused = (found: Awaited<ReturnType<typeof answers>>) =>
  found.map(({ copy, position }) => ({ copy, position, status: 400, refusal: REFUSED }));

const handedOut = (copies: readonly RecipeCopy[]): Map<RecipeCopy, string[]> =>
  new Map(copies.map((c) => [c, [...c.handedOut]]));

describe('a round read from a hot standby that replays a change between two statements', () => {
  let primary: PostgresServer;
  let standby: PostgresServer;
  let url: string;
  let api: Service;

  beforeAll(async () => {
    primary = await server();
    url = await prepareDatabase(primary);
    standby = await server({ standbyOf: primary });
    api = await service(url, { replicaUrl: standby.url('catalog') });
  }, 120_000);

  /**
   * Makes `change` on the primary in a transaction that also locks products (ACCESS EXCLUSIVE, as
   * ALTER TABLE, VACUUM FULL or CLUSTER do), lets the standby replay the lock, pauses its replay and
   * commits: the standby holds the lock and has not seen the change. Then `round` runs: what of its
   * first page reads products waits on the replayed lock, what came before has already read. Replay
   * resumes: the standby applies the commit, releases the lock, and the round goes on. Returns whether
   * the round did wait on the lock (the interleaving under test happened).
   */
  async function raceOnStandby(change: string, round: () => Promise<unknown>): Promise<boolean> {
    const writer = new pg.Client({ connectionString: url });
    await writer.connect();
    const onStandby = standby.url('catalog');
    try {
      await writer.query('BEGIN');
      await writer.query(change);
      await writer.query('LOCK TABLE products IN ACCESS EXCLUSIVE MODE');
      // The lock's WAL record goes to the standby once flushed: these servers commit asynchronously, so
      // a commit of another transaction that waits for its flush sends it now, not at the next checkpoint.
      await query(url, 'BEGIN; SET LOCAL synchronous_commit = on; SELECT pg_current_xact_id(); COMMIT;');
      await until('the standby replays the lock', async () => {
        const [{ n }] = await query<{ n: number }>(
          onStandby,
          `SELECT count(*)::int AS n FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
            WHERE c.relname = 'products' AND l.mode = 'AccessExclusiveLock' AND l.granted`,
        );
        return n > 0;
      });
      await query(onStandby, 'SELECT pg_wal_replay_pause()');
      await until('replay pauses', async () => {
        const [{ state }] = await query<{ state: string }>(
          onStandby,
          'SELECT pg_get_wal_replay_pause_state() AS state',
        );
        return state === 'paused';
      });
      await writer.query('COMMIT');
    } finally {
      await writer.end();
    }
    let ended = false;
    const running = round().finally(() => {
      ended = true;
    });
    let waited = false;
    try {
      await until(
        'the round waits on the replayed lock',
        async () => {
          const [{ n }] = await query<{ n: number }>(
            onStandby,
            `SELECT count(*)::int AS n FROM pg_stat_activity
              WHERE datname = 'catalog' AND backend_type = 'client backend' AND wait_event_type = 'Lock'`,
          );
          waited = n > 0;
          return waited || ended;
        },
        20_000,
      );
    } finally {
      await query(onStandby, 'SELECT pg_wal_replay_resume()');
    }
    await running;
    await until('the standby catches up', () => standby.caughtUpWith(primary));
    return waited;
  }

  async function expectRaceKeepsCopy(key: string, change: string): Promise<void> {
    await until('the standby catches up', () => standby.caughtUpWith(primary));
    const copy = new RecipeCopy(api, 'products', key);
    await copy.fullWalk();
    expect(await copy.round()).toBeNull();
    const waited = await raceOnStandby(change, () => copy.round());
    // Without the wait, this run did not put the change between the round's statements: it proves nothing.
    expect({ waitedOnTheReplayedLock: waited }).toEqual({ waitedOnTheReplayedLock: true });
    // One more round (from the position the raced round handed out), as the recipe goes on.
    expect(await copy.round()).toBeNull();
    const differing = await copy.differences({ extra: true });
    expect({ key, differing: differing.length, first: differing.slice(0, 2) }).toEqual({
      key,
      differing: 0,
      first: [],
    });
  }

  it('brings a VAT-rate edit replayed between them', async () => {
    await expectRaceKeepsCopy(
      KEYS.tenantA,
      `UPDATE vat_rates SET percentage = percentage + 1.5, name = 'Standard rate (raced)' WHERE id = 'vat_a_std'`,
    );
  }, 90_000);

  it("brings the new store's products of an allow-list widening replayed between them", async () => {
    await expectRaceKeepsCopy(
      KEYS.tenantAStore1,
      `UPDATE api_clients SET allowed_store_ids = ARRAY['sto_a1', 'sto_a2'] WHERE id = 'cli_a_store1'`,
    );
  }, 90_000);
});

describe('after a failover to a standby that missed commits', () => {
  it('refuses every position handed out before, also once it has run past them; a full walk then makes rounds work', async () => {
    const primary = await server();
    const url = await prepareDatabase(primary);
    const standby = await server({ standbyOf: primary });
    const before = await service(url);
    const copies = copiesFor(before);
    for (const copy of copies) await copy.fullWalk();
    await writes(url, 12);
    for (const copy of copies) expect(await copy.round()).toBeNull();
    await until('the standby catches up', () => standby.caughtUpWith(primary));
    // The standby stops streaming: what the primary commits from now on, and hands out, it never gets.
    await standby.stopStreaming();
    await writes(url, 12);
    for (const copy of copies) expect(await copy.round()).toBeNull();
    const lastOfPrimary = await nextTransaction(url);
    const positions = handedOut(copies);
    await before.close();
    await primary.halt();
    await standby.promote();
    const after = await service(standby.url('catalog'));
    for (const copy of copies) copy.service = after;
    const atOnce = await answers(copies, positions);
    // The promoted server runs 200 transactions and more, past every transaction the old primary had.
    const promoted = standby.url('catalog');
    const from = await nextTransaction(promoted);
    await advanceTransactions(promoted, from + 200n > lastOfPrimary ? from + 200n : lastOfPrimary + 10n);
    const later = await answers(copies, positions);
    const ran = (await nextTransaction(promoted)) - from;
    console.log(
      `sync-databases (failover): ${atOnce.length} positions, at once ${statuses(atOnce)}, ${ran} transactions later ${statuses(later)}`,
    );
    expect({ seed: SEED, atOnce, later }).toEqual({ seed: SEED, atOnce: allRefused(atOnce), later: allRefused(later) });
    // The recipe: a refused round, then a full walk; then rounds work again on the promoted server.
    for (const copy of copies) expect(await copy.sync()).toBe('refused, full walk');
    await writes(promoted, 12);
    for (const copy of copies) expect(await copy.round()).toBeNull();
    expect({ seed: SEED, differences: await differences(copies) }).toEqual({ seed: SEED, differences: {} });
  }, 120_000);
});

describe('after a restore', () => {
  it('into a new database or a new cluster, refuses every position handed out before; a full walk then makes rounds work', async () => {
    const first = await server();
    const { url, copies } = await syncedCopies(first);
    const dump = join(first.dir, 'catalog.dump');
    const at = (s: PostgresServer) => ['-h', '127.0.0.1', '-p', String(s.port), '-U', 'postgres'];
    await pgTool('pg_dump', [...at(first), '-Fc', '-f', dump, 'catalog']);
    await writes(url, 6);
    for (const copy of copies) expect(await copy.round()).toBeNull();
    const fromOriginal = handedOut(copies);

    // Into a new database of the same cluster.
    await query(first.url('postgres'), 'CREATE DATABASE catalog_restored');
    await pgTool('pg_restore', [...at(first), '--exit-on-error', '-d', 'catalog_restored', dump]);
    const restoredUrl = first.url('catalog_restored');
    const restored = await service(restoredUrl);
    for (const copy of copies) copy.service = restored;
    const newDatabase = await answers(copies, fromOriginal);
    for (const copy of copies) await copy.fullWalk();
    await writes(restoredUrl, 12);
    for (const copy of copies) expect(await copy.round()).toBeNull();
    const inNewDatabase = await differences(copies);
    const fromRestored = handedOut(copies);

    // Into a new cluster, one that has run more transactions than the first (as an older one has).
    const second = await server();
    await advanceTransactions(second.url('postgres'), (await nextTransaction(restoredUrl)) + 10n);
    await query(second.url('postgres'), 'CREATE DATABASE catalog');
    await pgTool('pg_restore', [...at(second), '--exit-on-error', '-d', 'catalog', dump]);
    const elsewhere = await service(second.url('catalog'));
    for (const copy of copies) copy.service = elsewhere;
    const newCluster = await answers(copies, fromRestored);
    for (const copy of copies) await copy.fullWalk();
    await writes(second.url('catalog'), 12);
    for (const copy of copies) expect(await copy.round()).toBeNull();
    const inNewCluster = await differences(copies);

    console.log(`sync-databases (restore): new database ${statuses(newDatabase)}, new cluster ${statuses(newCluster)}`);
    expect({ seed: SEED, newDatabase, newCluster, inNewDatabase, inNewCluster }).toEqual({
      seed: SEED,
      newDatabase: allRefused(newDatabase),
      newCluster: allRefused(newCluster),
      inNewDatabase: {},
      inNewCluster: {},
    });
  }, 150_000);
});

/**
 * `npm run admin -- sync:restarted-in-place` on the database `url`, once the service has recorded the
 * server's start (it does within seconds); its output.
 */
async function restartedInPlace(url: string): Promise<string> {
  await until('the service records the start', async () => {
    const [{ n }] = await query<{ n: number }>(
      url,
      `SELECT count(*)::int AS n FROM sync_server_starts
        WHERE started = (${SERVER_STARTED_SQL})::bigint`,
    );
    return n === 1;
  });
  const { stdout } = await runFile(process.execPath, ['dist/tools/cli/admin.js', 'sync:restarted-in-place'], {
    env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'silent' },
  });
  return stdout.trim();
}

/** Until the service answers again after its database server started anew (its pool reconnects). */
async function readyAgain(on: Service): Promise<void> {
  await until('the service reads the database again', async () => {
    const res = await fetch(`${on.base}/health/ready`).catch(() => null);
    return res?.status === 200;
  });
}

describe('after a start from a copy of the server files', () => {
  it('refuses every position handed out before its start, also once it has run past them; a full walk then makes rounds work', async () => {
    const db = await server();
    // One service all along: the database goes back in time under a running service.
    const { url, running, copies } = await syncedCopies(db);
    const beforeRestart = handedOut(copies);

    // A cold copy (the server stops for it and starts again): a plain restart, as far as positions go.
    const files = await db.copyFiles();
    await readyAgain(running);
    const afterRestart = await answers(copies, beforeRestart);
    for (const copy of copies) expect(await copy.sync()).toBe('refused, full walk');

    // The server goes on past the copy and hands out positions; then it is lost, and started from the copy.
    await writes(url, 12);
    for (const copy of copies) expect(await copy.round()).toBeNull();
    await writes(url, 6);
    for (const copy of copies) expect(await copy.round()).toBeNull();
    const sinceCopy = new Map([...handedOut(copies)].map(([c, p]) => [c, p.slice(beforeRestart.get(c)!.length)]));
    const lastOfLost = await nextTransaction(url);
    await db.startFromCopy(files);
    await readyAgain(running);
    const atOnce = await answers(copies, sinceCopy);
    // The copy's server runs past every transaction the lost one had: its positions are not ahead of it.
    await advanceTransactions(url, lastOfLost + 10n);
    const later = await answers(copies, sinceCopy);
    console.log(
      `sync-databases (start from a copy): before the restart ${statuses(afterRestart)}, ` +
        `since the copy at once ${statuses(atOnce)}, past them ${statuses(later)}`,
    );
    expect({ seed: SEED, afterRestart, atOnce, later }).toEqual({
      seed: SEED,
      afterRestart: allRefused(afterRestart),
      atOnce: allRefused(atOnce),
      later: allRefused(later),
    });
    for (const copy of copies) expect(await copy.sync()).toBe('refused, full walk');
    await writes(url, 12);
    for (const copy of copies) expect(await copy.round()).toBeNull();
    expect({ seed: SEED, differences: await differences(copies) }).toEqual({ seed: SEED, differences: {} });
  }, 180_000);

  it('honours the positions of the start before once an operator says the server restarted in place', async () => {
    const db = await server();
    const url = await prepareDatabase(db);
    const running = await service(url);
    // Nothing to continue yet: the server has not started since the service first saw it.
    await expect(restartedInPlace(url)).rejects.toThrow(/no earlier start of this database server is recorded/);
    const copies = copiesFor(running);
    for (const copy of copies) await copy.fullWalk();
    await writes(url, 12);
    for (const copy of copies) expect(await copy.round()).toBeNull();
    const positions = handedOut(copies);
    await db.halt();
    await db.resume();
    await readyAgain(running);
    const restarted = await answers(copies, positions);
    const said = await restartedInPlace(url);
    const vouched = await answers(copies, positions);
    const again = await restartedInPlace(url);
    console.log(`sync-databases (in place): restarted ${statuses(restarted)}, then ${statuses(vouched)}; ${said}`);
    expect({ seed: SEED, restarted, vouched, said, again }).toEqual({
      seed: SEED,
      restarted: allRefused(restarted),
      vouched: vouched.map((a) => ({ ...a, status: 200, refusal: null })),
      said: expect.stringMatching(/^The server's start of \S+ continues its start of \S+: sync positions/),
      again: expect.stringMatching(/already continues .*: nothing changed\.$/),
    });
    for (const copy of copies) expect(await copy.round()).toBeNull();
    await writes(url, 12);
    for (const copy of copies) expect(await copy.round()).toBeNull();
    expect({ seed: SEED, differences: await differences(copies) }).toEqual({ seed: SEED, differences: {} });
    // A restart nobody vouched for: refused again.
    const later = handedOut(copies);
    await db.halt();
    await db.resume();
    await readyAgain(running);
    const unsaid = await answers(copies, later);
    expect({ seed: SEED, unsaid }).toEqual({ seed: SEED, unsaid: allRefused(unsaid) });
  }, 180_000);

  type Step = 'writes' | 'sync' | 'restart' | 'restart in place (vouched)' | 'copy' | 'start from a copy';
  const STEPS = Number(process.env.SYNC_RESTART_STEPS ?? 14);
  // Always ends on the case that drifted before (positions handed out after a copy, then the copy started).
  const LAST: readonly Step[] = ['copy', 'writes', 'sync', 'writes', 'sync', 'start from a copy', 'sync'];

  it('in generated orders of writes, rounds, restarts, copies and starts from them, never lets a copy drift', async () => {
    const random = seededRandom(SEED ^ 0x5eed);
    const pick = (): Step => {
      const r = random();
      if (r < 0.3) return 'writes';
      if (r < 0.6) return 'sync';
      if (r < 0.67) return 'restart';
      if (r < 0.74) return 'restart in place (vouched)';
      return r < 0.87 ? 'copy' : 'start from a copy';
    };
    const steps: Step[] = [...Array.from({ length: STEPS }, pick), ...LAST];
    console.log(`sync-databases (generated starts): SYNC_SEED=${SEED}, ${steps.join(', ')}`);
    const db = await server();
    const url = await prepareDatabase(db);
    const running = await service(url);
    const copies = copiesFor(running);
    for (const copy of copies) await copy.fullWalk();
    const files: string[] = [];
    let newest = 0n; // the newest transaction any run of the server reached
    const done: string[] = [];
    for (const [n, step] of steps.entries()) {
      const next = await nextTransaction(url);
      if (next > newest) newest = next;
      if (step === 'writes') await writes(url, 1 + Math.floor(random() * 12));
      else if (step === 'restart' || step === 'restart in place (vouched)') {
        await db.halt();
        await db.resume();
        await readyAgain(running);
        // The operator's word, true here: the server started from its own files as it stopped.
        if (step === 'restart in place (vouched)') await restartedInPlace(url);
      } else if (step === 'copy') files.push(await db.copyFiles());
      else if (step === 'start from a copy' && files.length > 0) {
        await db.startFromCopy(files[Math.floor(random() * files.length)]);
        // Past every transaction of the runs it lost: no position is ahead of it.
        await readyAgain(running);
        await advanceTransactions(url, newest + 10n);
      }
      await readyAgain(running);
      if (step !== 'sync') {
        done.push(step === 'start from a copy' && files.length === 0 ? 'start from a copy (none taken yet)' : step);
        continue;
      }
      const outcomes = new Set<string>();
      for (const copy of copies) outcomes.add(await copy.sync());
      done.push(`sync (${[...outcomes].join(' / ')})`);
      expect({ seed: SEED, step: n, steps: done, differences: await differences(copies) }).toEqual({
        seed: SEED,
        step: n,
        steps: done,
        differences: {},
      });
    }
    console.log(`sync-databases (generated starts): ${done.join(', ')}`);
  }, 400_000);
});

describe('a service that reads a hot standby', () => {
  it('honours positions while the primary runs, and refuses them once the primary has started again', async () => {
    const primary = await server();
    const url = await prepareDatabase(primary);
    const standby = await server({ standbyOf: primary, settings: ['log_statement = all'] });
    const onStandby = standby.url('catalog');
    const running = await service(url, { replicaUrl: onStandby });
    const copies = copiesFor(running);
    for (const copy of copies) await copy.fullWalk();
    await writes(url, 12);
    await until('the standby catches up', () => standby.caughtUpWith(primary));
    const logged = readFileSync(join(standby.dir, 'log'), 'utf8').length;
    const rounds: (Refusal | null)[] = [];
    for (const copy of copies) rounds.push(await copy.round());
    // The standby served reads of the rounds (their pages, not only the primary's start around them).
    // The standby logs every statement: the rounds' guards ran there (a round's first page checks its position).
    const guardsOnStandby =
      readFileSync(join(standby.dir, 'log'), 'utf8').slice(logged).split('execute cia_sync_guard').length - 1;
    const servedByStandby = guardsOnStandby >= copies.length;
    const positions = handedOut(copies);
    await primary.halt();
    await primary.resume();
    await readyAgain(running);
    await until('the standby streams again', async () => {
      const [{ n }] = await query<{ n: number }>(onStandby, 'SELECT count(*)::int AS n FROM pg_stat_wal_receiver');
      return n === 1;
    });
    const afterRestart = await answers(copies, positions);
    console.log(
      `sync-databases (standby): rounds ${JSON.stringify(rounds)}, after the primary restarted ${statuses(afterRestart)}`,
    );
    expect({ seed: SEED, rounds, servedByStandby, afterRestart }).toEqual({
      seed: SEED,
      rounds: copies.map(() => null),
      servedByStandby: true,
      afterRestart: allRefused(afterRestart),
    });
    for (const copy of copies) expect(await copy.sync()).toBe('refused, full walk');
    // DATABASE_URL reaching the standby (a failover under way): a sync walk gets a 503 to retry, not a 500.
    const misdirected = await service(onStandby);
    const walk = await fetch(`${misdirected.base}/v1/catalog/products?activeOnly=false&pageSize=5`, {
      headers: { authorization: `Bearer ${KEYS.tenantA}` },
    });
    expect({ seed: SEED, status: walk.status, retryAfter: walk.headers.get('retry-after') }).toEqual({
      seed: SEED,
      status: 503,
      retryAfter: '1',
    });
    await writes(url, 6);
    await until('the standby catches up', () => standby.caughtUpWith(primary));
    for (const copy of copies) expect(await copy.round()).toBeNull();
    expect({ seed: SEED, differences: await differences(copies) }).toEqual({ seed: SEED, differences: {} });
  }, 180_000);
});

describe('a database fed by a logical-replication subscription', () => {
  it("serves copies that lose nothing of what the publisher's writer does, a TRUNCATE of stock_levels included", async () => {
    const logical = { settings: ['wal_level = logical'] };
    const publisher = await server(logical);
    const subscriber = await server(logical);
    const publisherUrl = await prepareDatabase(publisher);
    // The subscriber has the service's schema (migrated) and the same data set, then follows the
    // publisher. A cluster of its own, with a transaction counter of its own: ahead of the publisher's.
    const url = await prepareDatabase(subscriber);
    await advanceTransactions(subscriber.url('postgres'), (await nextTransaction(publisherUrl)) + 3000n);
    const sentinel = 'CREATE TABLE replication_sentinel (id int PRIMARY KEY, n int NOT NULL)';
    await query(publisherUrl, sentinel);
    await query(url, sentinel);
    // Every table a list reads that the back office writes (grants and counts are the subscriber's
    // own, derived by its triggers), and stock_cost_layers, which a TRUNCATE of stock_levels cascades to.
    await query(
      publisherUrl,
      `CREATE PUBLICATION cia_lists FOR TABLE stores, vat_rates, categories, products, stock_levels,
         stock_cost_layers, api_clients, replication_sentinel`,
    );
    await query(
      url,
      `CREATE SUBSCRIPTION cia_lists
         CONNECTION 'host=127.0.0.1 port=${publisher.port} dbname=catalog user=postgres'
         PUBLICATION cia_lists WITH (copy_data = false)`,
    );
    let mark = 0;
    const replicated = async (): Promise<void> => {
      mark++;
      await query(
        publisherUrl,
        `INSERT INTO replication_sentinel VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET n = $1`,
        [mark],
      );
      await until('the subscriber applies what the publisher committed', async () => {
        const rows = await query<{ n: number }>(url, 'SELECT n FROM replication_sentinel WHERE id = 1');
        return rows[0]?.n === mark;
      });
    };
    await replicated();

    const api = await service(url);
    const copies = copiesFor(api);
    for (const copy of copies) await copy.fullWalk();
    const { ids, fillers } = await writerProducts(publisherUrl);
    const tempDir = dir('cia-sync-logical-');
    const writer = new Writer(pool(publisherUrl), ids, fillers, publisherUrl, tempDir);
    const writing = writer.run();
    const outcomes: Record<string, number> = {};
    let truncated = false;
    try {
      for (let round = 0; round < 12 || (writer.writes <= 60 && round < 100); round++) {
        // A transaction held open across rounds commits after later ones (the publisher sends it then).
        // It ends before the TRUNCATE: on main a writer's statement waits for it (the product_counts
        // row) while holding stock_levels, and the TRUNCATE would wait for that statement for ever.
        if (round === 1) await writer.holdOpen();
        if (round === 4) await writer.commitHeld();
        if (round === 6) {
          // An operator empties the stock levels (the writer goes on creating them).
          await query(publisherUrl, 'TRUNCATE stock_levels CASCADE');
          truncated = true;
        }
        await sleep(40);
        for (const copy of copies) {
          const outcome = await copy.sync();
          outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
        }
      }
    } finally {
      await writer.stop();
      await writing;
    }
    await replicated();
    for (const copy of copies) await copy.sync();
    expect({ truncated, writes: writer.writes > 50 }).toEqual({ truncated: true, writes: true });
    // The subscriber holds what the publisher holds.
    const count =
      'SELECT (SELECT count(*) FROM stock_levels)::int AS stock, (SELECT count(*) FROM products)::int AS products';
    expect(await query(url, count)).toEqual(await query(publisherUrl, count));
    console.log(`sync-databases (logical replication): ${writer.writes} writes, rounds ${JSON.stringify(outcomes)}`);
    expect({ seed: SEED, differences: await differences(copies) }).toEqual({ seed: SEED, differences: {} });
  }, 240_000);
});

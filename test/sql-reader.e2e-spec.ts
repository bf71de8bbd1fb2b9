import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import pg from 'pg';
import { loadConfig } from '../src/config/app-config.js';
import { createDataSource, migrate } from '../src/database/data-source-options.js';
import { DatabaseBusyError, DatabaseDeadlineError, DatabaseOverloadedError } from '../src/database/deadline.js';
import { SqlReader } from '../src/database/sql-reader.js';
import { importDataset } from '../src/dataset/import-dataset.js';
import { KEYS, testDataset } from './support/dataset.js';
import { type PostgresServer, startPostgresServer } from './support/postgres-server.js';
import { startService } from './support/service.js';
import { createTestDatabase, dropTestDatabase } from './support/test-database.js';

/**
 * SqlReader bounds every wait of a request by its deadline on the client side: one budget for all
 * of a request's statements, a prompt error when the database is frozen, and connections kept for
 * cheap reads while expensive ones saturate the pool. Timings are fault bounds with wide margins.
 */
const SLEEP = { text: 'SELECT pg_sleep($1::float8 / 1000) AS slept', name: undefined };
const ONE = { text: 'SELECT 1 AS one', name: undefined };

async function withReader(url: string, poolSize: number, run: (reader: SqlReader) => Promise<void>): Promise<void> {
  const ds: DataSource = createDataSource({ url, poolSize, statementTimeoutMs: 60_000 });
  await ds.initialize();
  const reader = new SqlReader(ds, loadConfig({ DATABASE_URL: url, DB_POOL_SIZE: String(poolSize) }));
  try {
    await run(reader);
  } finally {
    reader.onModuleDestroy();
    await ds.destroy();
  }
}

const elapsed = async (work: () => Promise<unknown>): Promise<{ ms: number; error: unknown }> => {
  const started = Date.now();
  const error = await work().then(
    () => undefined,
    (e: unknown) => e,
  );
  return { ms: Date.now() - started, error };
};

describe('SqlReader on a database of the test run', () => {
  let url: string;
  beforeAll(async () => {
    url = await createTestDatabase();
  });
  afterAll(async () => dropTestDatabase(url));

  it('reads tuples as arrays in the order of the select list, and rows as objects, on one connection', async () => {
    await withReader(url, 2, async (reader) => {
      const PAIRS = {
        text: "SELECT v.id, v.json FROM (VALUES ('b', '{}'), ('a', NULL)) v(id, json) ORDER BY v.id",
        name: 'cia_test_pairs',
      };
      const read = await reader.read(Date.now() + 5000, { cost: 'cheap' }, async (db) => ({
        tuples: await db.tuples<[string, string | null]>(PAIRS, []),
        rows: await db.rows<{ id: string; json: string | null }>(PAIRS, []),
        again: await db.tuples<[string, string | null]>(PAIRS, []),
      }));
      // A named (prepared) statement read both ways: the row mode is the query's, not the statement's.
      expect(read).toEqual({
        tuples: [
          ['a', null],
          ['b', '{}'],
        ],
        rows: [
          { id: 'a', json: null },
          { id: 'b', json: '{}' },
        ],
        again: [
          ['a', null],
          ['b', '{}'],
        ],
      });
    });
  });

  it("gives all of a read's statements one budget, not one each", async () => {
    await withReader(url, 4, async (reader) => {
      const { ms, error } = await elapsed(() =>
        reader.read(Date.now() + 1000, { cost: 'expensive' }, async (db) => {
          await db.rows(SLEEP, [600]);
          await db.rows(SLEEP, [600]);
        }),
      );
      expect(error).toBeInstanceOf(DatabaseDeadlineError);
      expect(ms).toBeGreaterThanOrEqual(950);
      expect(ms).toBeLessThan(1150); // two statements of 600 ms would end at 1200 ms
      // The connection whose statement outlived the deadline was destroyed; the pool goes on.
      await reader.read(Date.now() + 1000, { cost: 'cheap' }, (db) => db.rows(ONE, []));
    });
  });

  it('refuses a statement once the deadline has passed, without running it', async () => {
    await withReader(url, 4, async (reader) => {
      const deadline = Date.now() + 200;
      const { error } = await elapsed(() =>
        reader.read(deadline, { cost: 'cheap' }, async (db) => {
          while (Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
          await db.rows(ONE, []);
        }),
      );
      expect(error).toBeInstanceOf(DatabaseDeadlineError);
    });
  });

  it('keeps connections for cheap reads while expensive ones fill their capacity, and refuses the overflow', async () => {
    await withReader(url, 4, async (reader) => {
      // 4 connections, 2 kept for cheap reads: 2 expensive reads at once. Since issue 31 a refusal
      // says whose the overload is: client a, already holding its share, is told 429 (busy); c and d,
      // holding none, are told the service is over capacity (503, overloaded).
      const settle = (read: Promise<unknown>) =>
        read.then(
          () => 'done',
          (error: unknown) =>
            error instanceof DatabaseBusyError
              ? `busy, retry after ${error.retryAfterSeconds} s`
              : error instanceof DatabaseOverloadedError
                ? `overloaded, retry after ${error.retryAfterSeconds} s`
                : error,
        );
      const expensive = ['a', 'b', 'c', 'd'].map((client) =>
        settle(reader.read(Date.now() + 5000, { cost: 'expensive', client }, (db) => db.rows(SLEEP, [1500]))),
      );
      const second = settle(
        reader.read(Date.now() + 5000, { cost: 'expensive', client: 'a' }, (db) => db.rows(ONE, [])),
      );
      const cheap = await elapsed(() => reader.read(Date.now() + 5000, { cost: 'cheap' }, (db) => db.rows(ONE, [])));
      expect(cheap.error).toBeUndefined();
      expect(await Promise.all([...expensive, second])).toEqual([
        'done',
        'done',
        'overloaded, retry after 1 s',
        'overloaded, retry after 1 s',
        'busy, retry after 1 s',
      ]);
    });
  });

  it('never runs more statements than the pool holds: a statement past its deadline is cancelled in PostgreSQL', async () => {
    const observer = new pg.Client({ connectionString: url, application_name: 'cia_test_observer' });
    await observer.connect();
    // The service's backends on this database (other runs may share the server, not the database).
    const backends = async (): Promise<{ all: number; sleeping: number }> => {
      const [row] = (
        await observer.query(
          `SELECT count(*)::int AS all, count(*) FILTER (WHERE query LIKE 'SELECT pg_sleep%' AND state = 'active')::int
                  AS sleeping
             FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1`,
          ['catalog-inventory-read-api'],
        )
      ).rows;
      return row;
    };
    try {
      await withReader(url, 3, async (reader) => {
        let most = 0;
        let sampling = true;
        const sampler = (async () => {
          while (sampling) {
            most = Math.max(most, (await backends()).all);
            await new Promise((r) => setTimeout(r, 20));
          }
        })();
        // Two waves of twice the pool's reads whose statement would sleep 30 s: each that starts outlives
        // its deadline; since issue 31 those that find no connection are shed (refused at once, at
        // half their time left) instead of waiting in the pool's queue until the deadline.
        const outcomes: unknown[] = [];
        for (const wave of [1, 2]) {
          const reads = Array.from({ length: 6 }, () =>
            reader
              .read(Date.now() + 400, { cost: 'cheap' }, (db) => db.rows(SLEEP, [30_000]))
              .then(
                () => `wave ${wave}: answered`,
                (error: unknown) =>
                  error instanceof DatabaseDeadlineError
                    ? 'deadline'
                    : error instanceof DatabaseBusyError || error instanceof DatabaseOverloadedError
                      ? 'shed'
                      : String(error),
              ),
          );
          const settled = await Promise.all(reads);
          // At most the pool's 3 ran.
          expect(settled.filter((o) => o === 'deadline').length).toBeLessThanOrEqual(3);
          outcomes.push(...settled);
        }
        // The cancelled statements end (a fault bound: uncancelled, they would sleep 30 s).
        let left = await backends();
        for (let i = 0; i < 50 && left.sleeping > 0; i++) {
          await new Promise((r) => setTimeout(r, 100));
          left = await backends();
        }
        sampling = false;
        await sampler;
        expect(outcomes.filter((o) => o !== 'deadline' && o !== 'shed')).toEqual([]);
        expect(left.sleeping).toBe(0);
        expect(most).toBeLessThanOrEqual(3);
        // The pool still serves, on the connections it kept.
        await reader.read(Date.now() + 2000, { cost: 'cheap' }, (db) => db.rows(ONE, []));
        expect((await backends()).all).toBeLessThanOrEqual(3);
      });
    } finally {
      await observer.end();
    }
  });

  it('keeps the connections it made when traffic stops, so that a burst after a quiet spell pays for none', async () => {
    await withReader(url, 3, async (reader) => {
      const ds = (reader as unknown as { dataSource: DataSource }).dataSource;
      const pool = (ds.driver as unknown as { master: pg.Pool & { options: { idleTimeoutMillis: number } } }).master;
      pool.options.idleTimeoutMillis = 100; // the configured 30 s, shortened: only connections above min close
      await Promise.all(
        [1, 2, 3].map(() => reader.read(Date.now() + 5000, { cost: 'cheap' }, (db) => db.rows(SLEEP, [100]))),
      );
      expect(pool.totalCount).toBe(3);
      await new Promise((r) => setTimeout(r, 500));
      expect([pool.totalCount, pool.idleCount]).toEqual([3, 3]);
    });
  });

  it('fails the read, not the process, when its connection is terminated while the read holds it', async () => {
    await withReader(url, 2, async (reader) => {
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      try {
        const PID = { text: 'SELECT pg_backend_pid() AS pid', name: undefined };
        const error = await reader
          .read(Date.now() + 5000, { cost: 'cheap' }, async (db) => {
            const [{ pid }] = await db.rows<{ pid: number }>(PID, []);
            // As PostgreSQL does on a restart, a failover or pg_terminate_backend: the FATAL message
            // and the close arrive between two statements of the read. pg-pool does not listen to a
            // client it has handed out, so an 'error' event nobody listens to would end the process.
            await admin.query('SELECT pg_terminate_backend($1)', [pid]);
            await new Promise((r) => setTimeout(r, 300));
            await db.rows(ONE, []);
          })
          .then(
            () => undefined,
            (e: unknown) => e,
          );
        expect(error).toBeInstanceOf(Error);
        // The broken connection was discarded: the next read gets a working one.
        await reader.read(Date.now() + 5000, { cost: 'cheap' }, (db) => db.rows(ONE, []));
      } finally {
        await admin.end();
      }
    });
  });

  it('listens for errors of a connection from its creation (one that fails in the chunk that readied it)', async () => {
    await withReader(url, 3, async (reader) => {
      await reader.read(Date.now() + 5000, { cost: 'cheap' }, (db) => db.rows(ONE, []));
      const ds = (reader as unknown as { dataSource: DataSource }).dataSource;
      const pool = (ds.driver as unknown as { master: pg.Pool }).master;
      // The idle one the read used, and two made now: handed out before any read holds them.
      const clients = await Promise.all([pool.connect(), pool.connect(), pool.connect()]);
      const unheard = clients.filter((client) => client.listenerCount('error') === 0).length;
      for (const client of clients) {
        if (client.listenerCount('error') > 0) client.emit('error', new Error('terminating connection'));
        client.release(true);
      }
      // An 'error' event with no listener ends the process.
      expect(unheard).toBe(0);
    });
  });
});

describe('SqlReader on a PostgreSQL that freezes', () => {
  let server: PostgresServer;
  beforeAll(async () => {
    server = await startPostgresServer();
  });
  afterAll(async () => server.stop());

  /** The postmaster and every backend of the server: SIGSTOP freezes the whole server. */
  const signalServer = (signal: 'STOP' | 'CONT'): void => {
    const postmaster = readFileSync(join(server.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0];
    const children = execFileSync('pgrep', ['-P', postmaster], { encoding: 'utf8' }).split('\n').filter(Boolean);
    execFileSync('kill', [`-${signal}`, postmaster, ...children]);
  };

  it('ends a read promptly while the server is frozen, and reads again once it thaws', async () => {
    await withReader(server.url('postgres'), 4, async (reader) => {
      await reader.read(Date.now() + 2000, { cost: 'cheap' }, (db) => db.rows(ONE, []));
      signalServer('STOP');
      try {
        // An open connection (its statement never answered) and a new one (never established).
        const open = await elapsed(() => reader.read(Date.now() + 1000, { cost: 'cheap' }, (db) => db.rows(ONE, [])));
        expect(open.error).toBeInstanceOf(DatabaseDeadlineError);
        expect(open.ms).toBeLessThan(2000);
        const fresh = await elapsed(() =>
          Promise.all(
            [1, 2, 3, 4, 5].map(() => reader.read(Date.now() + 1000, { cost: 'cheap' }, (db) => db.rows(ONE, []))),
          ),
        );
        // Ended at the deadline, or (since issue 31) shed before it, when no connection was free.
        expect(
          [DatabaseDeadlineError, DatabaseBusyError, DatabaseOverloadedError].some(
            (kind) => fresh.error instanceof kind,
          ),
        ).toBe(true);
        expect(fresh.ms).toBeLessThan(2000);
      } finally {
        signalServer('CONT');
      }
      const rows = await reader.read(Date.now() + 5000, { cost: 'cheap' }, (db) => db.rows<{ one: number }>(ONE, []));
      expect(rows).toEqual([{ one: 1 }]);
    });
  });

  it('answers a request with a prompt 500 while the server is frozen, and 200 again once it thaws', async () => {
    const admin = new pg.Client({ connectionString: server.url('postgres') });
    await admin.connect();
    await admin.query('CREATE DATABASE catalog');
    await admin.end();
    const url = server.url('catalog');
    await migrate({ url });
    const ds = createDataSource({ url, poolSize: 1 });
    await ds.initialize();
    await importDataset(ds, testDataset(), { replace: false });
    await ds.destroy();
    const service = await startService({ DATABASE_URL: url, DB_STATEMENT_TIMEOUT_MS: '1000' });
    const get = (path: string) =>
      elapsed(async () => {
        const res = await fetch(service.base + path, { headers: { Authorization: `Bearer ${KEYS.tenantA}` } });
        if (res.status !== 200)
          throw Object.assign(new Error(String(res.status)), { status: res.status, body: await res.json() });
      });
    try {
      expect((await get('/v1/catalog/products')).error).toBeUndefined();
      signalServer('STOP');
      try {
        for (const path of ['/v1/catalog/products', '/v1/inventory/stock', '/v1/catalog/products/prd_a1_cola']) {
          const { ms, error } = await get(path);
          expect((error as { status?: number }).status).toBe(500);
          expect((error as { body: { error: { code: string } } }).body.error.code).toBe('internal_error');
          expect(ms).toBeLessThan(2500); // the budget is 1 s; unbounded, this would wait until the server thaws
        }
      } finally {
        signalServer('CONT');
      }
      expect((await get('/v1/catalog/products')).error).toBeUndefined();
    } finally {
      await service.close();
    }
  });
});

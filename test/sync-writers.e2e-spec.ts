import pg from 'pg';
import { KEYS } from './support/dataset.js';
import { type PostgresServer, startPostgresServer } from './support/postgres-server.js';
import {
  COPY_KEYS,
  prepareDatabase,
  ROUTES,
  type Route,
  seededRandom,
  type Service,
  startService,
} from './support/sync-harness.js';
import { judge, spreadCatalog, SyncCopy } from './support/write-paths.js';

/**
 * Writers never serialize on the service's bookkeeping (issue 30): two sessions, each in a long (or
 * prepared) transaction, writing different products of one store, both proceed; and several writers
 * inserting, updating, deleting and moving products across stores in overlapping transactions (some
 * of them prepared, PREPARE TRANSACTION, then committed or rolled back later) never wait for each
 * other, after which the maintained counts (the lists' `total`) equal a COUNT(*) and an incremental
 * round brings a copy equal to a full walk.
 *
 * Waiting is detected with lock_timeout: a statement that waits for a lock longer than LOCK_TIMEOUT
 * fails with 55P03, which the test reports. The writers own disjoint products, so the only locks
 * they could wait for are the service's (the maintained counts).
 *
 * WRITERS_SEED=n replays the generated schedule; WRITERS=n writers (4), WRITERS_TRANSACTIONS=n
 * transactions each (8).
 */
const SEED = Number(process.env.WRITERS_SEED ?? Math.floor(Math.random() * 2 ** 31));
const WRITERS = Number(process.env.WRITERS ?? 4);
const TRANSACTIONS = Number(process.env.WRITERS_TRANSACTIONS ?? 8);
const LOCK_TIMEOUT = '1s';
console.log(`sync writers: WRITERS_SEED=${SEED}`);

const TENANT = 'ten_a';
const STORES = ['sto_a1', 'sto_a2'];

let server: PostgresServer;
let service: Service;
let url: string;
let db: pg.Pool;
let prepared = false;

beforeAll(async () => {
  server = await startPostgresServer({ settings: ['max_prepared_transactions = 20'] });
  url = await prepareDatabase(server);
  db = new pg.Pool({ connectionString: url, max: 3 });
  await spreadCatalog(db);
  prepared = Number((await db.query(`SHOW max_prepared_transactions`)).rows[0].max_prepared_transactions) > 0;
  service = await startService(url);
}, 120_000);

afterAll(async () => {
  await service?.close();
  await db?.end();
  await server?.stop();
});

/** A session of its own that gives up waiting for a lock after LOCK_TIMEOUT. */
async function session(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`SET lock_timeout = '${LOCK_TIMEOUT}'`);
  return client;
}

/** The statement's error, if it failed: a lock wait that timed out is 55P03. */
async function attempt(client: pg.Client, sql: string, values: unknown[] = []): Promise<string | null> {
  try {
    await client.query(sql, values);
    return null;
  } catch (error) {
    const { code, message } = error as { code?: string; message: string };
    return `${code}: ${message}`;
  }
}

const productsOf = async (store: string): Promise<string[]> =>
  (
    await db.query(`SELECT id FROM products WHERE tenant_id = $1 AND store_id = $2 ORDER BY id`, [TENANT, store])
  ).rows.map((r: { id: string }) => r.id);

/**
 * The lists' totals (from the maintained counts: no filter but `storeId` and `activeOnly`) next to a
 * COUNT(*) of the rows: they must be equal.
 */
async function totals(): Promise<{ list: string; total: number; counted: number }[]> {
  const found: { list: string; total: number; counted: number }[] = [];
  for (const route of Object.keys(ROUTES) as Route[]) {
    for (const store of [undefined, ...STORES]) {
      for (const activeOnly of [true, false]) {
        const query = `activeOnly=${activeOnly}&pageSize=1${store ? `&storeId=${store}` : ''}`;
        const res = await fetch(`${service.base}${ROUTES[route]}?${query}`, {
          headers: { Authorization: `Bearer ${KEYS.tenantA}` },
        });
        const body = (await res.json()) as { total: number };
        if (res.status !== 200) throw new Error(`${route}?${query}: ${res.status} ${JSON.stringify(body)}`);
        const [{ n }] = (
          await db.query(
            `SELECT count(*)::int AS n FROM products WHERE tenant_id = $1 AND ($2::text IS NULL OR store_id = $2)
                AND (is_active OR NOT $3)`,
            [TENANT, store ?? null, activeOnly],
          )
        ).rows;
        found.push({ list: `${route}?${query}`, total: body.total, counted: n });
      }
    }
  }
  return found;
}

const unequalTotals = async () => (await totals()).filter((t) => t.total !== t.counted);

describe('two writers of one store', () => {
  for (const end of ['open', 'prepared'] as const) {
    it(`both proceed while the first one's transaction is ${end === 'open' ? 'open' : 'prepared and not yet committed'}`, async () => {
      if (end === 'prepared' && !prepared) return;
      const [first, second] = [await session(), await session()];
      const gid = `writers_two_${Date.now()}`;
      const waits: string[] = [];
      try {
        const [p1, p2, p3, p4] = await productsOf('sto_a1');
        // A filler: its SKU is taken in no other store.
        const [elsewhere] = (await productsOf('sto_a2')).filter((id) => id.startsWith('prd_a2_f'));
        await first.query('BEGIN');
        await first.query(`UPDATE products SET name = name || ' (first)' WHERE id = $1`, [p1]);
        await first.query(`UPDATE products SET is_active = NOT is_active WHERE id = $1`, [p2]);
        if (end === 'prepared') await first.query(`PREPARE TRANSACTION '${gid}'`);
        // The second session's writes of other products of the same store, each of every kind.
        const writes: [string, string, unknown[]][] = [
          ['rename', `UPDATE products SET name = name || ' (second)' WHERE id = $1`, [p3]],
          ['deactivate', `UPDATE products SET is_active = NOT is_active WHERE id = $1`, [p4]],
          ['move in', `UPDATE products SET store_id = 'sto_a1' WHERE id = $1`, [elsewhere]],
          [
            'insert',
            `INSERT INTO products (id, tenant_id, store_id, name, sku, unit_type, selling_price_gross, selling_price_net,
               tax_category, vat_rate_id, is_active, variable_price, age_restricted, alcohol_restricted,
               tobacco_restricted, vape_restricted, updated_at)
             VALUES ($1, 'ten_a', 'sto_a1', 'Second', $2, 'item', 1, 1, 'STANDARD', 'vat_a_std', true, false, false,
               false, false, false, now())`,
            [`prd_second_${end}`, `SECOND-${end}`],
          ],
          ['delete', `DELETE FROM products WHERE id = $1`, [`prd_second_${end}`]],
        ];
        await second.query('BEGIN');
        for (const [kind, sql, values] of writes) {
          const error = await attempt(second, sql, values);
          if (error !== null) {
            waits.push(`${kind}: ${error}`);
            await second.query('ROLLBACK');
            await second.query('BEGIN');
          }
        }
        await second.query('COMMIT');
      } finally {
        await first.query('ROLLBACK').catch(() => undefined);
        if (end === 'prepared') await first.query(`COMMIT PREPARED '${gid}'`).catch(() => undefined);
        else await first.query('COMMIT').catch(() => undefined);
        await first.end();
        await second.end();
      }
      // Each statement of the second session went through without waiting for the first session.
      expect({ lockTimeout: LOCK_TIMEOUT, waits }).toEqual({ lockTimeout: LOCK_TIMEOUT, waits: [] });
      expect(await unequalTotals()).toEqual([]);
    }, 60_000);
  }
});

/** One writer of the generated schedule: its session, the products it owns, where it is. */
interface Writer {
  readonly n: number;
  readonly client: pg.Client;
  owned: string[];
  transactions: number;
  open: { statements: number; done: number } | null;
  prepared: { gid: string; ticks: number; commit: boolean } | null;
}

describe('writers in overlapping transactions across stores', () => {
  it('never wait for each other; the totals and a sync round stay right', async () => {
    const random = seededRandom(SEED);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
    const copies = COPY_KEYS.flatMap((key) =>
      (Object.keys(ROUTES) as Route[]).map((route) => new SyncCopy(service, route, key, `${route} / ${key}`)),
    );
    for (const copy of copies) await copy.round();
    // The fillers, whose SKUs no other product has: a move never waits on another writer's SKU.
    const all = (
      await db.query(`SELECT id FROM products WHERE tenant_id = $1 AND id LIKE 'prd_a2_f%' ORDER BY id`, [TENANT])
    ).rows.map((r: { id: string }) => r.id);
    const writers: Writer[] = [];
    for (let n = 0; n < WRITERS; n++) {
      writers.push({
        n,
        client: await session(),
        owned: all.filter((_, i) => i % WRITERS === n),
        transactions: 0,
        open: null,
        prepared: null,
      });
    }
    const log: string[] = [];
    const waits: string[] = [];
    let serial = 0;
    /** One write of the writer's own products (or a new one), described. */
    const write = (w: Writer): [string, unknown[]] => {
      const id = pick(w.owned);
      const kind = Math.floor(random() * 9);
      switch (kind) {
        case 0:
          return [`UPDATE products SET name = $2 WHERE id = $1`, [id, `Writer ${w.n} ${serial++}`]];
        case 1:
          return [`UPDATE products SET selling_price_gross = $2 WHERE id = $1`, [id, (random() * 9 + 1).toFixed(2)]];
        case 2:
          return [`UPDATE products SET is_active = NOT is_active WHERE id = $1`, [id]];
        case 3:
          return [`UPDATE products SET store_id = $2 WHERE id = $1`, [id, pick(STORES)]];
        case 4: {
          const created = `prd_wr_${w.n}_${serial++}`;
          w.owned.push(created);
          return [
            `INSERT INTO products (id, tenant_id, store_id, name, sku, unit_type, selling_price_gross, selling_price_net,
               tax_category, vat_rate_id, is_active, variable_price, age_restricted, alcohol_restricted,
               tobacco_restricted, vape_restricted, updated_at)
             VALUES ($1, 'ten_a', $2, $3, upper($3), 'item', 1.20, 1.00, 'STANDARD', 'vat_a_std', $4, false, false,
               false, false, false, now())`,
            [created, pick(STORES), created, random() < 0.8],
          ];
        }
        case 5:
          if (w.owned.length < 6) return [`UPDATE products SET brand = 'kept' WHERE id = $1`, [id]];
          w.owned = w.owned.filter((o) => o !== id);
          return [`DELETE FROM products WHERE id = $1`, [id]];
        case 6:
          return [`UPDATE stock_levels SET quantity = $2 WHERE product_id = $1`, [id, (random() * 40).toFixed(3)]];
        case 7:
          return [
            `INSERT INTO stock_levels (product_id, tenant_id, store_id, track_stock, quantity, reorder_level,
               low_stock_threshold, updated_at)
             SELECT id, tenant_id, store_id, true, 3, 5, 5, now() FROM products WHERE id = $1
             ON CONFLICT (product_id) DO UPDATE SET quantity = stock_levels.quantity + 1`,
            [id],
          ];
        default:
          return [`DELETE FROM stock_levels WHERE product_id = $1`, [id]];
      }
    };
    const busy = (w: Writer) => w.transactions < TRANSACTIONS || w.open !== null || w.prepared !== null;
    /** Who holds a transaction (open or prepared) while `w` runs a statement: whom it might wait for. */
    const others = (w: Writer) =>
      writers
        .filter((o) => o !== w && (o.open !== null || o.prepared !== null))
        .map((o) => `writer ${o.n} (${o.open ? 'open' : 'prepared'})`)
        .join(', ') || 'nobody';
    let ticks = 0;
    try {
      while (writers.some(busy)) {
        const w = pick(writers.filter(busy));
        ticks++;
        // Now and then the copies run a round while transactions are open or prepared.
        if (ticks % 15 === 0) for (const copy of copies) await copy.round();
        if (w.prepared !== null) {
          if (--w.prepared.ticks > 0) continue;
          const sql = `${w.prepared.commit ? 'COMMIT' : 'ROLLBACK'} PREPARED '${w.prepared.gid}'`;
          log.push(`writer ${w.n}: ${sql}`);
          await w.client.query(sql);
          w.prepared = null;
          continue;
        }
        if (w.open === null) {
          await w.client.query('BEGIN');
          w.open = { statements: 1 + Math.floor(random() * 4), done: 0 };
          log.push(`writer ${w.n}: BEGIN`);
          continue;
        }
        if (w.open.done < w.open.statements) {
          w.open.done++;
          const [sql, values] = write(w);
          const described = `writer ${w.n}: ${sql.split('\n')[0]} ${JSON.stringify(values)}`;
          log.push(described);
          const error = await attempt(w.client, sql, values);
          if (error === null) continue;
          // A SKU taken in the other store refuses a move: the writer rolls back, as any would.
          if (!error.startsWith('23505')) waits.push(`${described}: ${error} (holding: ${others(w)})`);
          log.push(`writer ${w.n}: ${error}; ROLLBACK`);
          await w.client.query('ROLLBACK');
          w.open = null;
          w.transactions++;
          continue;
        }
        const end = random();
        if (prepared && end < 0.3) {
          const gid = `writers_${SEED}_${w.n}_${w.transactions}`;
          await w.client.query(`PREPARE TRANSACTION '${gid}'`);
          w.prepared = { gid, ticks: 2 + Math.floor(random() * 8), commit: random() < 0.8 };
          log.push(`writer ${w.n}: PREPARE TRANSACTION '${gid}'`);
        } else {
          const sql = end < 0.85 ? 'COMMIT' : 'ROLLBACK';
          await w.client.query(sql);
          log.push(`writer ${w.n}: ${sql}`);
        }
        w.open = null;
        w.transactions++;
      }
    } finally {
      for (const w of writers) {
        await w.client.query('ROLLBACK').catch(() => undefined);
        if (w.prepared) await w.client.query(`ROLLBACK PREPARED '${w.prepared.gid}'`).catch(() => undefined);
        await w.client.end();
      }
    }
    const wrongCopies = await judge(copies);
    const wrongTotals = await unequalTotals();
    // Plain writes mark their rows: no round may be refused for them (that would cost a full copy).
    const refusals = copies.reduce((sum, c) => sum + c.refusals, 0);
    const failed = waits.length > 0 || wrongCopies.length > 0 || wrongTotals.length > 0 || refusals > 0;
    if (failed) {
      throw new Error(
        `WRITERS_SEED=${SEED}: ${waits.length} statement(s) waited longer than ${LOCK_TIMEOUT} for another writer, ` +
          `${wrongTotals.length} total(s) differ from a COUNT(*), ${wrongCopies.length} cop(ies) differ from a full walk, ` +
          `${refusals} round(s) refused\n` +
          `waits:\n  ${waits.slice(0, 8).join('\n  ')}\n` +
          `totals:\n  ${wrongTotals.map((t) => `${t.list}: total ${t.total}, counted ${t.counted}`).join('\n  ')}\n` +
          `copies:\n  ${wrongCopies.map((c) => `${c.label}: ${c.differing} differ; ${c.first.join('; ')}`).join('\n  ')}\n` +
          `schedule (last 40 of ${log.length}):\n  ${log.slice(-40).join('\n  ')}`,
      );
    }
  }, 240_000);
});

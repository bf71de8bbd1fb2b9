import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { createDataSource, migrate } from '../src/database/data-source-options.js';
import { importDataset } from '../src/tools/dataset/import-dataset.js';
import { KEYS, testDataset } from './support/dataset.js';
import { type PostgresServer, startPostgresServer } from './support/postgres-server.js';
import { type Service, startService } from './support/service.js';

/**
 * The loss test of the sync recipe: while a writer updates, deactivates, reactivates and moves
 * products and changes, creates and deletes stock levels (in SQL and through db:import, with old
 * timestamps, and with a transaction held open across several of the client's pages that commits
 * after later ones), a client follows the documented recipe round after round. After the writer
 * stops and one last round, the client's copy equals the service's state, field by field, for
 * products and stock rows. Then again with the reads served by real streaming replicas (hot standbys
 * made with pg_basebackup) that lag behind by different amounts.
 *
 * SYNC_RECIPE=updatedSince runs the client with the recipe this service documented before (keep the
 * largest updatedAt, pass it as updatedSince): the test fails, the copy misses changes.
 */
const exec = promisify(execFile);
const RECIPE = process.env.SYNC_RECIPE === 'updatedSince' ? 'updatedSince' : 'changedSince';
const ROUTES = { products: '/v1/catalog/products', stock: '/v1/inventory/stock' } as const;
type Route = keyof typeof ROUTES;
type Row = Record<string, unknown>;
const idOf = (row: Row): string => String(row.id ?? row.productId);
const next = (link: string | null): string | undefined => /<([^>]+)>; rel="next"/.exec(link ?? '')?.[1];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A client that keeps a copy of products and stock rows by the recipe under test. */
class SyncClient {
  readonly copies: Record<Route, Map<string, Row>> = { products: new Map(), stock: new Map() };
  private readonly positions: Partial<Record<Route, string>> = {};
  private readonly largestUpdatedAt: Partial<Record<Route, string>> = {};
  pages = 0;

  constructor(
    private readonly service: Service,
    private readonly onPage: () => Promise<void> = async () => undefined,
  ) {}

  async round(route: Route): Promise<void> {
    let url: string | undefined = this.firstUrl(route);
    let position: string | null = null;
    while (url !== undefined) {
      const res = await fetch(this.service.base + url, { headers: { Authorization: `Bearer ${KEYS.tenantA}` } });
      if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
      const body = (await res.json()) as { rows: Row[] };
      for (const row of body.rows) {
        this.copies[route].set(idOf(row), row);
        const seen = this.largestUpdatedAt[route];
        if (seen === undefined || String(row.updatedAt) > seen) this.largestUpdatedAt[route] = String(row.updatedAt);
      }
      position = res.headers.get('sync-position') ?? position;
      url = next(res.headers.get('link'));
      this.pages++;
      await this.onPage();
    }
    if (RECIPE === 'changedSince') {
      if (position === null) throw new Error(`${route}: the walk handed out no Sync-Position`);
      this.positions[route] = position;
    }
  }

  private firstUrl(route: Route): string {
    if (RECIPE === 'updatedSince') {
      const since = this.largestUpdatedAt[route];
      return `${ROUTES[route]}?pageSize=7${since ? `&updatedSince=${encodeURIComponent(since)}` : ''}`;
    }
    const position = this.positions[route];
    return `${ROUTES[route]}?activeOnly=false&pageSize=7${position ? `&changedSince=${position}` : ''}`;
  }
}

/** Every row the service holds for the key now: a fresh walk of every row, inactive ones included. */
async function serviceState(service: Service, route: Route): Promise<Map<string, Row>> {
  const state = new Map<string, Row>();
  let url: string | undefined = `${ROUTES[route]}?activeOnly=false&pageSize=100`;
  while (url !== undefined) {
    const res = await fetch(service.base + url, { headers: { Authorization: `Bearer ${KEYS.tenantA}` } });
    for (const row of ((await res.json()) as { rows: Row[] }).rows) state.set(idOf(row), row);
    url = next(res.headers.get('link'));
  }
  return state;
}

/** Random writes of every kind a catalog sees, until stopped. */
class Writer {
  private stopped = false;
  private readonly random = seededRandom(Number(process.env.SYNC_SEED ?? 7));
  private held: pg.PoolClient | null = null;
  private heldProduct: string | null = null;
  private imports = 0;
  writes = 0;

  constructor(
    private readonly db: pg.Pool,
    private readonly products: string[],
    private readonly fillers: string[],
    private readonly databaseUrl: string,
    private readonly tempDir: string,
  ) {}

  async run(): Promise<void> {
    while (!this.stopped) {
      // Now and then a few products come in through db:import, with old source timestamps.
      if (this.writes % 40 === 39 && this.imports < 3) await this.importSome();
      else await this.write();
      this.writes++;
      await sleep(this.random() * 4);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.commitHeld();
  }

  /** Opens a transaction that changes the first product and stays open (committed by commitHeld). */
  get holding(): boolean {
    return this.held !== null;
  }

  async holdOpen(): Promise<void> {
    if (this.held !== null) return;
    this.held = await this.db.connect();
    this.heldProduct = this.products[0];
    await this.held.query('BEGIN');
    await this.held.query(`UPDATE products SET name = name || ' (held)', updated_at = '2001-01-01' WHERE id = $1`, [
      this.heldProduct,
    ]);
  }

  async commitHeld(): Promise<void> {
    if (this.held === null) return;
    await this.held.query('COMMIT');
    this.held.release();
    this.held = null;
    this.heldProduct = null;
  }

  /** Imports a few fillers through the command line, with old source timestamps. */
  private async importSome(): Promise<void> {
    this.imports++;
    const ids = new Set(this.pick(this.fillers, 3));
    const products = (testDataset().products as Row[])
      .filter((p) => ids.has(String(p.id)))
      .map((p) => ({
        ...p,
        name: `${p.name} imported ${this.writes}`,
        sellingPriceGross: '7.77',
        updatedAt: '2002-02-02T00:00:00.000Z',
      }));
    const file = join(this.tempDir, `import-${this.writes}.json`);
    writeFileSync(file, JSON.stringify({ products }));
    await exec(process.execPath, ['dist/tools/cli/db-import.js', file], {
      env: { ...process.env, DATABASE_URL: this.databaseUrl },
    });
  }

  private pick(list: string[], n = 1): string[] {
    const candidates = list.filter((id) => id !== this.heldProduct);
    return Array.from({ length: n }, () => candidates[Math.floor(this.random() * candidates.length)]);
  }

  private async write(): Promise<void> {
    const [id] = this.pick(this.products);
    const at = this.random() < 0.3 ? "'2001-01-01'" : 'now()';
    const kind = Math.floor(this.random() * 9);
    const q = (sql: string, values: unknown[] = []) => this.db.query(sql, values);
    switch (kind) {
      case 0:
        return void (await q(`UPDATE products SET selling_price_gross = $2, updated_at = ${at} WHERE id = $1`, [
          id,
          (this.random() * 10).toFixed(2),
        ]));
      case 1:
        return void (await q(`UPDATE products SET is_active = NOT is_active, updated_at = ${at} WHERE id = $1`, [id]));
      case 2: {
        const [filler] = this.pick(this.fillers);
        return void (await q(
          `UPDATE products SET store_id = CASE store_id WHEN 'sto_a1' THEN 'sto_a2' ELSE 'sto_a1' END, updated_at = ${at} WHERE id = $1`,
          [filler],
        ));
      }
      case 3:
        return void (await q(`UPDATE stock_levels SET quantity = $2, updated_at = ${at} WHERE product_id = $1`, [
          id,
          (this.random() * 50 - 5).toFixed(3),
        ]));
      case 4:
        return void (await q(
          `INSERT INTO stock_levels (product_id, tenant_id, store_id, track_stock, quantity, reorder_level, low_stock_threshold, updated_at)
           SELECT id, tenant_id, store_id, true, $2, 5, 5, ${at} FROM products WHERE id = $1
           ON CONFLICT (product_id) DO UPDATE SET track_stock = NOT stock_levels.track_stock, quantity = EXCLUDED.quantity`,
          [id, (this.random() * 20).toFixed(3)],
        ));
      case 5:
        return void (await q(`DELETE FROM stock_levels WHERE product_id = $1`, [id]));
      case 6: {
        // Several rows in one transaction, far apart in id order.
        const client = await this.db.connect();
        try {
          await client.query('BEGIN');
          for (const other of this.pick(this.products, 3)) {
            await client.query(`UPDATE products SET name = $2, updated_at = ${at} WHERE id = $1`, [
              other,
              `Renamed ${this.writes}`,
            ]);
          }
          await client.query('COMMIT');
        } finally {
          client.release();
        }
        return;
      }
      case 7:
        return void (await q(`UPDATE stock_levels SET reorder_level = $2 WHERE product_id = $1`, [
          id,
          Math.floor(this.random() * 10),
        ]));
      default:
        return void (await q(`UPDATE products SET brand = $2, updated_at = ${at} WHERE id = $1`, [
          id,
          `Brand ${this.writes}`,
        ]));
    }
  }
}

function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

async function prepareDatabase(server: PostgresServer): Promise<string> {
  const admin = new pg.Client({ connectionString: server.url('postgres') });
  await admin.connect();
  await admin.query('CREATE DATABASE catalog');
  await admin.end();
  const url = server.url('catalog');
  await migrate({ url });
  const ds = createDataSource({ url, poolSize: 2 });
  await ds.initialize();
  await importDataset(ds, testDataset(), { replace: false });
  await ds.destroy();
  return url;
}

async function lossTest(options: { replicas: boolean }): Promise<void> {
  const primary = await startPostgresServer();
  const standbys: PostgresServer[] = [];
  let service: Service | undefined;
  const tempDir = mkdtempSync(join(tmpdir(), 'cia-sync-loss-'));
  const url = await prepareDatabase(primary);
  const db = new pg.Pool({ connectionString: url, max: 4 });
  let writer: Writer | undefined;
  try {
    // Two standbys that lag by different amounts: one walk's pages may be read from either.
    if (options.replicas) {
      for (const applyDelayMs of [100, 900])
        standbys.push(await startPostgresServer({ standbyOf: primary, applyDelayMs }));
    }
    const replicas = standbys.map((s) => s.url('catalog')).join(',');
    service = await startService({
      DATABASE_URL: url,
      RATE_LIMIT_PER_MINUTE: '1000000',
      ...(replicas ? { DATABASE_REPLICA_URLS: replicas } : {}),
    });
    const ids = (await db.query(`SELECT id FROM products WHERE tenant_id = 'ten_a' ORDER BY id`)).rows.map(
      (r) => r.id as string,
    );
    writer = new Writer(
      db,
      ids,
      ids.filter((id) => id.includes('_f')),
      url,
      tempDir,
    );
    // A transaction is held open across several of the client's pages (four), while later ones
    // commit; then the next one opens at the start of the next round.
    let pagesHeld = 0;
    let laggedRounds = 0;
    const client = new SyncClient(service, async () => {
      if (writer?.holding && ++pagesHeld >= 4) await writer.commitHeld();
    });
    await client.round('products');
    await client.round('stock');
    const writing = writer.run();
    for (let round = 0; round < 16; round++) {
      if (!writer.holding) {
        pagesHeld = 0;
        await writer.holdOpen();
      }
      await sleep(40);
      await client.round('products');
      await client.round('stock');
      for (const standby of standbys) if (!(await standby.caughtUpWith(primary))) laggedRounds++;
    }
    await writer.stop();
    await writing;
    for (const standby of standbys) {
      for (let i = 0; !(await standby.caughtUpWith(primary)); i++) {
        if (i > 100) throw new Error('a standby does not catch up');
        await sleep(100);
      }
    }
    await client.round('products');
    await client.round('stock');
    expect(writer.writes).toBeGreaterThan(50);
    if (standbys.length > 0) {
      // The replicas did lag behind the writes, and they served the reads.
      expect(laggedRounds).toBeGreaterThan(0);
      for (const standby of standbys) expect(await standby.transactions('catalog')).toBeGreaterThan(20);
    }
    for (const route of ['products', 'stock'] as const) {
      const state = await serviceState(service, route);
      expect(state.size).toBe(ids.length);
      const differing = [...state.keys()].filter(
        (id) => JSON.stringify(client.copies[route].get(id)) !== JSON.stringify(state.get(id)),
      );
      expect({
        route,
        differing: differing.map((id) => ({ copy: client.copies[route].get(id), service: state.get(id) })),
      }).toEqual({
        route,
        differing: [],
      });
      expect([...client.copies[route].keys()].sort()).toEqual([...state.keys()].sort());
    }
  } finally {
    // A failed round must not leave the held transaction open: the writer would wait on it for ever.
    await writer?.stop();
    await service?.close();
    await db.end();
    for (const standby of standbys) await standby.stop();
    await primary.stop();
    rmSync(tempDir, { recursive: true, force: true });
  }
}

describe(`a client following the ${RECIPE} recipe`, () => {
  it('keeps a copy equal to the service, reading from the primary', async () => {
    await lossTest({ replicas: false });
  }, 120_000);

  it('keeps a copy equal to the service, reading from streaming replicas that lag', async () => {
    await lossTest({ replicas: true });
  }, 180_000);
});

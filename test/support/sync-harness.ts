import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { createDataSource, migrate } from '../../src/database/data-source-options.js';
import { importDataset } from '../../src/dataset/import-dataset.js';
import { KEYS, testDataset } from './dataset.js';
import { type PostgresServer, startPostgresServer } from './postgres-server.js';
import { type Service, startService as startAppService } from './service.js';

export type { Service };

/**
 * What the sync loss tests share (test/sync-loss.e2e-spec.ts with raw HTTP, and the TypeScript
 * client's in clients/typescript/test/): the service on a PostgreSQL of the test's own, the state it
 * holds for a key, and a writer that changes the catalog in every way a catalog changes.
 */
const exec = promisify(execFile);
export const ROUTES = { products: '/v1/catalog/products', stock: '/v1/inventory/stock' } as const;
export type Route = keyof typeof ROUTES;
export type Row = Record<string, unknown>;
/** A row's key: products by id, stock rows by productId. */
export const idOf = (row: Row): string => String(row.id ?? row.productId);
export const nextLink = (link: string | null): string | undefined => /<([^>]+)>; rel="next"/.exec(link ?? '')?.[1];
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The service on the database `url` (reads also on `replicaUrl`), listening on `port` (a free one by
 * default). No rate limit unless `env` sets RATE_LIMIT_PER_MINUTE.
 */
export function startService(
  url: string,
  options: { replicaUrl?: string; env?: Record<string, string>; port?: number } = {},
): Promise<Service> {
  const { replicaUrl, env = {}, port } = options;
  return startAppService(
    {
      DATABASE_URL: url,
      ...(replicaUrl ? { DATABASE_REPLICA_URLS: replicaUrl } : {}),
      RATE_LIMIT_PER_MINUTE: '1000000',
      // SYNC_LOG_LEVEL=error shows the cause of an unexpected 500 (the service's own log line).
      LOG_LEVEL: process.env.SYNC_LOG_LEVEL ?? 'silent',
      ...env,
    },
    { port },
  );
}

/** The keys the loss tests keep a copy with: one of every store, and one limited to stores. */
export const COPY_KEYS = [KEYS.tenantA, KEYS.tenantAStore1] as const;

/** Every row the service holds for the key now: a fresh walk of every row, inactive ones included. */
export async function serviceState(service: Service, route: Route, key: string): Promise<Map<string, Row>> {
  const state = new Map<string, Row>();
  let url: string | undefined = `${ROUTES[route]}?activeOnly=false&pageSize=100`;
  while (url !== undefined) {
    const res = await fetch(service.base + url, { headers: { Authorization: `Bearer ${key}` } });
    for (const row of ((await res.json()) as { rows: Row[] }).rows) state.set(idOf(row), row);
    url = nextLink(res.headers.get('link'));
  }
  return state;
}

/** Random writes of every kind a catalog sees, until stopped. */
export class Writer {
  private stopped = false;
  private readonly random = seededRandom(Number(process.env.SYNC_SEED ?? 7));
  private held: pg.PoolClient | null = null;
  private heldProduct: string | null = null;
  private imports = 0;
  /** Deleted products as they were (every column, their change marker too), to put back later. */
  private readonly deleted: Row[] = [];
  /** Stores this writer made (with a few products), deleted later. */
  private readonly stores: string[] = [];
  private storesMade = 0;
  writes = 0;

  /** How many writes took rows out of some view (deletions, store deletions). */
  get removals(): number {
    return this.deleted.length + this.restored + this.storesDeleted;
  }
  private restored = 0;
  private storesDeleted = 0;

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
    const kind = Math.floor(this.random() * 14);
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
      case 8:
        // A VAT rate is edited: every product that shows it changes, without being written.
        return void (await q(`UPDATE vat_rates SET name = $2, percentage = $3 WHERE id = $1`, [
          this.random() < 0.7 ? 'vat_a_std' : 'vat_a_red',
          `Rate ${this.writes}`,
          (this.random() * 25).toFixed(2),
        ]));
      case 9: {
        // The key limited to stores is given other stores (more, fewer, or every store).
        const views = [['sto_a1'], ['sto_a1', 'sto_a2'], ['sto_a2'], null];
        const view = views[Math.floor(this.random() * views.length)];
        return void (await q(`UPDATE api_clients SET allowed_store_ids = $1 WHERE id = 'cli_a_store1'`, [view]));
      }
      case 11: {
        // A product deleted (its stock level goes with it), kept to be put back later.
        const [filler] = this.pick(this.fillers);
        const { rows } = await q(`DELETE FROM products WHERE id = $1 RETURNING *`, [filler]);
        this.deleted.push(...rows);
        return;
      }
      case 12: {
        // A deleted product put back with every column, its old change marker included.
        const row = this.deleted.shift();
        if (row === undefined) return;
        this.restored++;
        const columns = Object.keys(row).filter((c) => c !== 'search_text');
        // A write the schema refuses (its store is gone, its SKU taken meanwhile) is no write.
        await q(
          `INSERT INTO products (${columns.join(', ')}) VALUES (${columns.map((_, n) => `$${n + 1}`).join(', ')})
           ON CONFLICT (id) DO NOTHING`,
          columns.map((c) => row[c]),
        ).catch(() => undefined);
        return;
      }
      case 13: {
        // A store made with two products, or one made earlier deleted (its products with it).
        if (this.stores.length > 0 && this.random() < 0.5) {
          const store = this.stores.shift()!;
          this.storesDeleted++;
          return void (await q(`DELETE FROM stores WHERE id = $1`, [store]));
        }
        // Unique across writers on one database (a failover test runs a second writer on the same data).
        const store = `sto_a_tmp${++this.storesMade}_${Date.now().toString(36)}`;
        this.stores.push(store);
        const client = await this.db.connect();
        try {
          await client.query('BEGIN');
          await client.query(`INSERT INTO stores (id, tenant_id, name) VALUES ($1, 'ten_a', $2)`, [store, store]);
          const [{ columns }] = (
            await client.query(`SELECT string_agg(column_name, ', ' ORDER BY ordinal_position) AS columns
              FROM information_schema.columns WHERE table_name = 'products' AND is_generated = 'NEVER'
               AND column_name NOT IN ('id', 'store_id')`)
          ).rows;
          await client.query(
            `INSERT INTO products (id, store_id, ${columns})
             SELECT id || '_' || $1::text, $2, ${columns} FROM products WHERE id = ANY($3)`,
            [store, store, this.pick(this.products, 2)],
          );
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          throw error;
        } finally {
          client.release();
        }
        return;
      }
      default:
        return void (await q(`UPDATE products SET brand = $2, updated_at = ${at} WHERE id = $1`, [
          id,
          `Brand ${this.writes}`,
        ]));
    }
  }
}

export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** A database `catalog` on the server, migrated, with the test data set. */
export async function prepareDatabase(server: PostgresServer): Promise<string> {
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

/**
 * What keeps a copy in a loss test: a round of the sync recipe per route (its changes walk, then its
 * removals walk from the same position), and the copies it keeps.
 */
export interface Copier {
  readonly copies: Record<Route, Map<string, Row>>;
  round(route: Route): Promise<void>;
}

export const REMOVALS_ROUTES = {
  products: '/v1/catalog/product-removals',
  stock: '/v1/inventory/stock-removals',
} as const;

/**
 * The loss test both sync loss tests run: the service on a PostgreSQL of the test's own (and two
 * standbys that lag by different amounts, with `replicas`), the writer at work while `copier` keeps a
 * copy for each of COPY_KEYS round after round, one transaction held open across four of the
 * copiers' pages (they call `onPage` after each), then the writer stopped, the standbys caught up and
 * one last round; each copy must then equal a fresh full walk with its key: the same ids and the
 * same fields, with no reconciling walk (removals reach it by its rounds).
 * Returns in how many rounds a standby lagged.
 */
export async function runLossTest(options: {
  replicas: boolean;
  tempPrefix: string;
  copier(service: Service, onPage: () => Promise<void>, key: string): Copier;
}): Promise<{ laggedRounds: number; standbys: number }> {
  const primary = await startPostgresServer();
  const standbys: PostgresServer[] = [];
  let service: Service | undefined;
  const tempDir = mkdtempSync(join(tmpdir(), options.tempPrefix));
  const url = await prepareDatabase(primary);
  const db = new pg.Pool({ connectionString: url, max: 4 });
  let writer: Writer | undefined;
  try {
    if (options.replicas) {
      for (const applyDelayMs of [100, 900])
        standbys.push(await startPostgresServer({ standbyOf: primary, applyDelayMs }));
    }
    service = await startService(url, { replicaUrl: standbys.map((s) => s.url('catalog')).join(',') || undefined });
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
    // A transaction is held open across several of the copier's pages (four), while later ones
    // commit; then the next one opens at the start of the next round.
    let pagesHeld = 0;
    let laggedRounds = 0;
    const onPage = async (): Promise<void> => {
      if (writer?.holding && ++pagesHeld >= 4) await writer.commitHeld();
    };
    const copies = COPY_KEYS.map((key) => ({ key, copy: options.copier(service!, onPage, key) }));
    const syncAll = async (): Promise<void> => {
      for (const { copy } of copies) {
        await copy.round('products');
        await copy.round('stock');
      }
    };
    await syncAll();
    const writing = writer.run();
    // At least 16 rounds, and on a busy machine as many more as it takes the writer to make 60 writes.
    for (let round = 0; round < 16 || (writer.writes <= 60 && round < 400); round++) {
      if (!writer.holding) {
        pagesHeld = 0;
        await writer.holdOpen();
      }
      await sleep(40);
      await syncAll();
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
    await syncAll();
    expect(writer.writes).toBeGreaterThan(50);
    expect(writer.removals).toBeGreaterThan(3);
    // The replicas served the reads.
    for (const standby of standbys) expect(await standby.transactions('catalog')).toBeGreaterThan(20);
    for (const { key, copy } of copies) {
      for (const route of ['products', 'stock'] as const) {
        const state = await serviceState(service, route, key);
        const differing = [...state.keys()].filter(
          (id) => JSON.stringify(copy.copies[route].get(id)) !== JSON.stringify(state.get(id)),
        );
        expect({
          key,
          route,
          differing: differing.map((id) => ({ copy: copy.copies[route].get(id), service: state.get(id) })),
        }).toEqual({ key, route, differing: [] });
        // The same ids: whatever left the view (deleted, moved away, a store narrowed or deleted) left the copy.
        const extra = [...copy.copies[route].keys()].filter((id) => !state.has(id));
        expect({ key, route, extra }).toEqual({ key, route, extra: [] });
      }
    }
    return { laggedRounds, standbys: standbys.length };
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

import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import pg from 'pg';
import type { DataSource } from 'typeorm';
import { createDataSource } from '../src/database/data-source-options.js';
import { importDataset } from '../src/dataset/import-dataset.js';
import { testDataset } from './support/dataset.js';
import { createTestDatabase, dropTestDatabase } from './support/test-database.js';

/**
 * A narrowing of a client's stores takes a SHARE lock on products (the RemovalsFailSafe migration).
 * Taken late in a transaction that has written products already, that lock waits for every other
 * product writer, and such a writer may be waiting for that transaction in turn: a deadlock, which
 * PostgreSQL ends by failing one of them. db:import (products first, clients last) and the admin tool
 * (whose client row an import may be about to write) take their lock on products before they hold
 * anything another writer could wait for. Each test makes the interleaving that deadlocked, with
 * sessions of its own on a real PostgreSQL.
 */
const run = promisify(execFile);
let url: string;
let db: DataSource;

beforeAll(async () => {
  url = await createTestDatabase();
  db = createDataSource({ url, poolSize: 2 });
  await db.initialize();
  await importDataset(db, testDataset(), { replace: false });
});
afterAll(async () => {
  await db.destroy();
  await dropTestDatabase(url);
});

beforeEach(async () => {
  // cli_a_store1 sees both stores of ten_a: setting it back to sto_a1 narrows it.
  await db.query(`UPDATE api_clients SET allowed_store_ids = ARRAY['sto_a1', 'sto_a2'] WHERE id = 'cli_a_store1'`);
});

type Row = Record<string, unknown>;
const dataset = testDataset() as Record<string, Row[]>;
const byId = (collection: string, id: string): Row => dataset[collection].find((r) => r.id === id)!;

/** A file that renames a product and sets a client's stores (narrowing it when it sees more now). */
function fileOf(stores: string[], more: Record<string, Row[]> = {}): Record<string, Row[]> {
  return {
    products: [{ ...byId('products', 'prd_a1_cola'), name: 'Cola 330ml can (imported)' }],
    apiClients: [{ ...byId('apiClients', 'cli_a_store1'), allowedStoreIds: stores }],
    ...more,
  };
}

/** Settles to 'done' or the error's message. */
const outcome = (p: Promise<unknown>): Promise<string> =>
  p.then(
    () => 'done',
    (error: unknown) => (error as Error).message,
  );

/** Waits until a session of this database waits for a lock that `where` describes (pg_locks / pg_stat_activity). */
async function waitForLockWait(where: string): Promise<void> {
  const started = Date.now();
  for (;;) {
    const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
      WHERE NOT l.granted AND a.datname = current_database() AND ${where}`);
    if (n > 0) return;
    if (Date.now() - started > 8000) throw new Error(`no session waits for a lock where ${where}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function admin(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['dist/tools/cli/admin.js', ...args], {
      env: { ...process.env, DATABASE_URL: url, APP_ENV: 'development' },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('a narrowing of a client’s stores', () => {
  it('in db:import does not deadlock with a product writer that waits for a product the import wrote', async () => {
    const writer = new pg.Client({ connectionString: url });
    await writer.connect();
    try {
      // A point of sale's transaction, under way: it has written a product.
      await writer.query(`BEGIN`);
      await writer.query(`UPDATE products SET name = name || ' (sold)' WHERE id = 'prd_a1_diet'`);
      const imported = outcome(importDataset(db, fileOf(['sto_a1']), { replace: false }));
      // The import waits for the writer's lock on products (at its narrowing, or before it writes anything).
      await waitForLockWait(`l.relation = 'products'::regclass`);
      // The writer then writes the product the file writes too, and commits.
      const written = outcome(writer.query(`UPDATE products SET is_active = true WHERE id = 'prd_a1_cola'`));
      expect(await written).toBe('done');
      await writer.query(`COMMIT`);
      expect(await imported).toBe('done');
      const [client] = await db.query(`SELECT allowed_store_ids FROM api_clients WHERE id = 'cli_a_store1'`);
      expect(client.allowed_store_ids).toEqual(['sto_a1']);
      const [product] = await db.query(`SELECT name FROM products WHERE id = 'prd_a1_cola'`);
      expect(product.name).toBe('Cola 330ml can (imported)');
    } finally {
      await writer.query(`ROLLBACK`).catch(() => undefined);
      await writer.end();
    }
  });

  it('is all that makes db:import lock products: an import that narrows no client goes on beside product writers', async () => {
    // The file gives the client a store more (a widening locks nothing).
    await db.query(`UPDATE api_clients SET allowed_store_ids = ARRAY['sto_a1'] WHERE id = 'cli_a_store1'`);
    const writer = new pg.Client({ connectionString: url });
    await writer.connect();
    try {
      await writer.query(`BEGIN`);
      await writer.query(`UPDATE products SET name = name || ' (sold)' WHERE id = 'prd_a1_diet'`);
      expect(await outcome(importDataset(db, fileOf(['sto_a1', 'sto_a2']), { replace: false }))).toBe('done');
      const [client] = await db.query(`SELECT allowed_store_ids FROM api_clients WHERE id = 'cli_a_store1'`);
      expect(client.allowed_store_ids).toEqual(['sto_a1', 'sto_a2']);
    } finally {
      await writer.query(`ROLLBACK`).catch(() => undefined);
      await writer.end();
    }
  });

  it('by the admin tool does not deadlock with an import about to write that client', async () => {
    // Holds the import between its products and its clients (on the promotion it writes in between).
    const blocker = new pg.Client({ connectionString: url });
    await blocker.connect();
    try {
      await blocker.query(`BEGIN`);
      await blocker.query(`UPDATE promotions SET name = name WHERE id = 'pro_a1_meal'`);
      // The import lists the client as it is (no narrowing of its own).
      const file = fileOf(['sto_a1', 'sto_a2'], { promotions: [byId('promotions', 'pro_a1_meal')] });
      const imported = outcome(importDataset(db, file, { replace: false }));
      await waitForLockWait(`a.query LIKE 'INSERT INTO promotions%'`);
      // Meanwhile an operator narrows the client: it waits for the import's lock on products.
      const narrowed = admin('clients:update', 'cli_a_store1', '--stores', 'sto_a1');
      await waitForLockWait(`l.relation = 'products'::regclass`);
      // The import goes on to its clients.
      await blocker.query(`COMMIT`);
      expect(await imported).toBe('done');
      const { code, stderr } = await narrowed;
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      const [client] = await db.query(`SELECT allowed_store_ids FROM api_clients WHERE id = 'cli_a_store1'`);
      expect(client.allowed_store_ids).toEqual(['sto_a1']);
    } finally {
      await blocker.query(`ROLLBACK`).catch(() => undefined);
      await blocker.end();
    }
  });
});

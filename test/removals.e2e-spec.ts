import { SyncHousekeeping } from '../src/database/sync-housekeeping.js';
import { digestKey, keyHint } from '../src/values/api-key-format.js';
import { KEYS, testDataset } from './support/dataset.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * The removals feeds (docs/sync.md#removals): after a position, every row that left the caller's
 * view is listed once (deleted, moved to a store outside the view, its store left the view or was
 * deleted) unless it is in the view again; the feed's shape, paging, errors and scopes are the
 * lists'. Each test starts from a position taken just before its writes.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ dataset: testDataset(), env: { RATE_LIMIT_PER_MINUTE: '1000000' } });
});
afterAll(async () => t.close());

const PRODUCTS = '/v1/catalog/products?activeOnly=false&pageSize=100';
const STOCK = '/v1/inventory/stock?activeOnly=false&pageSize=100';
const PRODUCT_REMOVALS = '/v1/catalog/product-removals';
const STOCK_REMOVALS = '/v1/inventory/stock-removals';

type Removal = { id?: string; productId?: string; storeId: string; removedAt: string };

async function positionOf(path: string, key: string): Promise<string> {
  return (await t.get(path, key).expect(200)).headers['sync-position'];
}

/** Every row of a removals walk, following its Link cursors, with the pages' Sync-Positions. */
async function removals(path: string, key: string): Promise<{ rows: Removal[]; positions: Set<string> }> {
  const rows: Removal[] = [];
  const positions = new Set<string>();
  let url: string | undefined = path;
  while (url !== undefined) {
    const res: { body: { rows: Removal[] }; headers: Record<string, string> } = await t.get(url, key).expect(200);
    rows.push(...res.body.rows);
    positions.add(res.headers['sync-position']);
    url = /<([^>]+)>; rel="next"/.exec(res.headers.link ?? '')?.[1];
  }
  return { rows, positions };
}

const ids = (rows: Removal[]): string[] => rows.map((r) => r.id ?? r.productId!).sort();

/** The product columns an INSERT may write (not the generated search_text). */
async function productColumns(): Promise<string> {
  const [{ c }] = await t.db.query(`SELECT string_agg(quote_ident(column_name), ', ' ORDER BY ordinal_position) AS c
    FROM information_schema.columns WHERE table_name = 'products' AND is_generated = 'NEVER'`);
  return c;
}

describe('the removals feeds', () => {
  it('list a deleted product once on both feeds, with the list’s id key, in the declared key order', async () => {
    const products = await positionOf(PRODUCTS, KEYS.tenantA);
    const stock = await positionOf(STOCK, KEYS.tenantA);
    await t.db.query(`DELETE FROM products WHERE id = 'prd_a1_old'`);
    const p = await removals(`${PRODUCT_REMOVALS}?changedSince=${products}`, KEYS.tenantA);
    expect(p.rows).toHaveLength(1);
    expect(Object.keys(p.rows[0])).toEqual(['id', 'storeId', 'removedAt']);
    expect(p.rows[0]).toMatchObject({ id: 'prd_a1_old', storeId: 'sto_a1' });
    expect(p.rows[0].removedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    // The walk's Sync-Position repeats the one given: the round keeps its changes walk's.
    expect([...p.positions]).toEqual([products]);
    const s = await removals(`${STOCK_REMOVALS}?changedSince=${stock}`, KEYS.tenantA);
    expect(s.rows.map((r) => Object.keys(r))).toEqual([['productId', 'storeId', 'removedAt']]);
    expect(ids(s.rows)).toEqual(['prd_a1_old']);
  });

  it('leave out a row that left and came back (it reads as present)', async () => {
    const position = await positionOf(PRODUCTS, KEYS.tenantA);
    await t.db.query(`CREATE TEMP TABLE kept AS SELECT * FROM products WHERE id = 'prd_a1_juice'`);
    await t.db.query(`DELETE FROM products WHERE id = 'prd_a1_juice'`);
    expect(ids((await removals(`${PRODUCT_REMOVALS}?changedSince=${position}`, KEYS.tenantA)).rows)).toContain(
      'prd_a1_juice',
    );
    const columns = await productColumns();
    await t.db.query(`INSERT INTO products (${columns}) SELECT ${columns} FROM kept`);
    await t.db.query(`DROP TABLE kept`);
    expect(ids((await removals(`${PRODUCT_REMOVALS}?changedSince=${position}`, KEYS.tenantA)).rows)).not.toContain(
      'prd_a1_juice',
    );
  });

  it('list a product moved to a store outside the view for that view only', async () => {
    const all = await positionOf(PRODUCTS, KEYS.tenantA);
    const store1 = await positionOf(PRODUCTS, KEYS.tenantAStore1);
    await t.db.query(`UPDATE products SET store_id = 'sto_a2' WHERE id = 'prd_a1_creme'`);
    expect(ids((await removals(`${PRODUCT_REMOVALS}?changedSince=${store1}`, KEYS.tenantAStore1)).rows)).toEqual([
      'prd_a1_creme',
    ]);
    expect(ids((await removals(`${PRODUCT_REMOVALS}?changedSince=${all}`, KEYS.tenantA)).rows)).not.toContain(
      'prd_a1_creme',
    );
  });

  it('list every row of a store that left a key’s view, and none once it is back', async () => {
    await t.db.query(`UPDATE api_clients SET allowed_store_ids = ARRAY['sto_a1', 'sto_a2'] WHERE id = 'cli_a_store1'`);
    const position = await positionOf(PRODUCTS, KEYS.tenantAStore1);
    const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM products WHERE store_id = 'sto_a2'`);
    await t.db.query(`UPDATE api_clients SET allowed_store_ids = ARRAY['sto_a1'] WHERE id = 'cli_a_store1'`);
    const gone = await removals(`${PRODUCT_REMOVALS}?changedSince=${position}&pageSize=7`, KEYS.tenantAStore1);
    expect(gone.rows).toHaveLength(n);
    expect(new Set(gone.rows.map((r) => r.storeId))).toEqual(new Set(['sto_a2']));
    // Paged by id, each once.
    expect(ids(gone.rows)).toEqual([...new Set(ids(gone.rows))]);
    // Another client of the tenant lost nothing.
    const other = await positionOf(PRODUCTS, KEYS.tenantA);
    expect((await removals(`${PRODUCT_REMOVALS}?changedSince=${other}`, KEYS.tenantA)).rows).toEqual([]);
    await t.db.query(`UPDATE api_clients SET allowed_store_ids = ARRAY['sto_a1', 'sto_a2'] WHERE id = 'cli_a_store1'`);
    expect((await removals(`${PRODUCT_REMOVALS}?changedSince=${position}`, KEYS.tenantAStore1)).rows).toEqual([]);
    await t.db.query(`UPDATE api_clients SET allowed_store_ids = ARRAY['sto_a1'] WHERE id = 'cli_a_store1'`);
  });

  it('void every position at a narrowing older than any lock (REPEATABLE READ); record one in READ COMMITTED', async () => {
    await t.db.query(`UPDATE api_clients SET allowed_store_ids = ARRAY['sto_a1', 'sto_a2'] WHERE id = 'cli_a_store1'`);
    const before = await positionOf(PRODUCTS, KEYS.tenantAStore1);
    const other = await positionOf(PRODUCTS, KEYS.tenantA);
    const runner = t.db.createQueryRunner();
    try {
      // A widening records no removals and voids nothing, in any isolation.
      await runner.startTransaction('REPEATABLE READ');
      await runner.query(`UPDATE api_clients SET allowed_store_ids = NULL WHERE id = 'cli_a_store1'`);
      await runner.rollbackTransaction();
      await t.get(`${PRODUCTS}&changedSince=${other}`, KEYS.tenantA).expect(200);
      await runner.startTransaction('REPEATABLE READ');
      await runner.query(`UPDATE api_clients SET allowed_store_ids = ARRAY['sto_a1'] WHERE id = 'cli_a_store1'`);
      await runner.commitTransaction();
    } finally {
      await runner.release();
    }
    for (const [position, key] of [
      [before, KEYS.tenantAStore1],
      [other, KEYS.tenantA],
    ]) {
      const res = await t.get(`${PRODUCTS}&changedSince=${position}`, key).expect(400);
      expect(JSON.stringify(res.body)).toMatch(/marked no rows/);
    }
    // In READ COMMITTED it is recorded, and nothing is voided.
    await t.db.query(`UPDATE api_clients SET allowed_store_ids = ARRAY['sto_a1', 'sto_a2'] WHERE id = 'cli_a_store1'`);
    const position = await positionOf(PRODUCTS, KEYS.tenantAStore1);
    await t.db.query(`UPDATE api_clients SET allowed_store_ids = ARRAY['sto_a1'] WHERE id = 'cli_a_store1'`);
    const gone = await removals(`${PRODUCT_REMOVALS}?changedSince=${position}`, KEYS.tenantAStore1);
    expect(new Set(gone.rows.map((r) => r.storeId))).toEqual(new Set(['sto_a2']));
  });

  it('refuse positions handed out before the client was created again under its id', async () => {
    const position = await positionOf(PRODUCTS, KEYS.tenantAStore1);
    await t.db.transaction(async (m) => {
      await m.query(`CREATE TEMP TABLE again ON COMMIT DROP AS SELECT * FROM api_clients WHERE id = 'cli_a_store1'`);
      await m.query(
        `CREATE TEMP TABLE again_keys ON COMMIT DROP AS SELECT * FROM api_keys WHERE client_id = 'cli_a_store1'`,
      );
      await m.query(`DELETE FROM api_clients WHERE id = 'cli_a_store1'`);
      // created_xact as kept is ignored: the creating transaction's is written.
      await m.query(`INSERT INTO api_clients SELECT * FROM again`);
      await m.query(`INSERT INTO api_keys SELECT * FROM again_keys`);
      await m.query(`UPDATE api_clients SET created_xact = 0 WHERE id = 'cli_a_store1'`);
    });
    for (const path of [`${PRODUCTS}&changedSince=${position}`, `${PRODUCT_REMOVALS}?changedSince=${position}`]) {
      const res = await t.get(path, KEYS.tenantAStore1).expect(400);
      expect(JSON.stringify(res.body)).toMatch(/created again under the same id/);
    }
    // Its new positions are taken.
    const fresh = await positionOf(PRODUCTS, KEYS.tenantAStore1);
    await t.get(`${PRODUCTS}&changedSince=${fresh}`, KEYS.tenantAStore1).expect(200);
  });

  it('take the first position of a client created while an older write transaction was open', async () => {
    // The position is the oldest transaction its walk could not see: older than the client here.
    const key = 'ck_test_BrandNewClientKey00000000000000000001';
    const older = t.db.createQueryRunner();
    let committed = false;
    try {
      await older.startTransaction();
      await older.query(`UPDATE products SET name = name || ' (new recipe)' WHERE id = 'prd_a1_diet'`);
      const [{ xact: olderXact }] = await older.query(`SELECT pg_current_xact_id()::text AS xact`);
      await t.db.query(`INSERT INTO api_clients (id, tenant_id, name, status, scopes, allowed_store_ids)
        VALUES ('cli_a_new', 'ten_a', 'A new one', 'ACTIVE', ARRAY['catalog.products.read', 'inventory.stock.read'], NULL)`);
      await t.db.query(
        `INSERT INTO api_keys (id, client_id, key_digest, key_hint) VALUES ('key_a_new', 'cli_a_new', $1, $2)`,
        [digestKey(key), keyHint(key)],
      );
      const [{ created }] = await t.db.query(
        `SELECT created_xact::text AS created FROM api_clients WHERE id = 'cli_a_new'`,
      );
      expect(BigInt(olderXact)).toBeLessThan(BigInt(created));
      const products = await positionOf(PRODUCTS, key);
      const stock = await positionOf(STOCK, key);
      await older.commitTransaction();
      committed = true;
      // Both walks of the next round take it, and bring what the older transaction changed.
      const accepted = async (path: string): Promise<{ rows: { id?: string }[] }> => {
        const res = await t.get(path, key);
        expect(res.status === 200 ? 'accepted' : `${res.status} ${JSON.stringify(res.body)}`).toBe('accepted');
        return res.body;
      };
      const round = await accepted(`${PRODUCTS}&changedSince=${products}`);
      expect(round.rows.map((r) => r.id)).toContain('prd_a1_diet');
      await accepted(`${STOCK}&changedSince=${stock}`);
      await accepted(`${PRODUCT_REMOVALS}?changedSince=${products}`);
      await accepted(`${STOCK_REMOVALS}?changedSince=${stock}`);
    } finally {
      if (!committed) await older.rollbackTransaction().catch(() => undefined);
      await older.release();
      await t.db.query(`DELETE FROM api_clients WHERE id = 'cli_a_new'`);
    }
  });

  it('list every product of a deleted store', async () => {
    await t.db.query(`INSERT INTO stores (id, tenant_id, name) VALUES ('sto_a9', 'ten_a', 'A Nine')`);
    const columns = await productColumns();
    await t.db.query(`CREATE TEMP TABLE nine AS SELECT * FROM products WHERE id IN ('prd_a1_cola', 'prd_a1_diet')`);
    await t.db.query(`UPDATE nine SET id = 'prd_a9_' || id, store_id = 'sto_a9'`);
    await t.db.query(`INSERT INTO products (${columns}) SELECT ${columns} FROM nine`);
    await t.db.query(`DROP TABLE nine`);
    const position = await positionOf(PRODUCTS, KEYS.tenantA);
    await t.db.query(`DELETE FROM stores WHERE id = 'sto_a9'`);
    const gone = await removals(`${PRODUCT_REMOVALS}?changedSince=${position}`, KEYS.tenantA);
    expect(ids(gone.rows)).toEqual(['prd_a9_prd_a1_cola', 'prd_a9_prd_a1_diet']);
    expect(new Set(gone.rows.map((r) => r.storeId))).toEqual(new Set(['sto_a9']));
  });

  it('refuse what a round refuses: no position, another list’s, an altered one; a store outside the key is a 404', async () => {
    const products = await positionOf(PRODUCTS, KEYS.tenantA);
    for (const path of [
      PRODUCT_REMOVALS,
      `${PRODUCT_REMOVALS}?changedSince=sp_x`,
      `${STOCK_REMOVALS}?changedSince=${products}`,
      `${PRODUCT_REMOVALS}?changedSince=${products.slice(0, -2)}AA`,
      `${PRODUCT_REMOVALS}?changedSince=${products}&page=2`,
    ]) {
      const res = await t.get(path, KEYS.tenantA);
      expect({ path, status: res.status }).toEqual({ path, status: 400 });
      expect(res.body.error.code).toBe('validation_failed');
    }
    const missing = await t.get(PRODUCT_REMOVALS, KEYS.tenantA).expect(400);
    expect(missing.body.error.details.errors.map((e: { name: string }) => e.name)).toEqual(['changedSince']);
    // A walk of a store the key no longer sees: 404, as for its changes walk.
    await t.db.query(`UPDATE api_clients SET allowed_store_ids = ARRAY['sto_a1', 'sto_a2'] WHERE id = 'cli_a_store1'`);
    const store2 = await positionOf(`${PRODUCTS}&storeId=sto_a2`, KEYS.tenantAStore1);
    await t.db.query(`UPDATE api_clients SET allowed_store_ids = ARRAY['sto_a1'] WHERE id = 'cli_a_store1'`);
    await t.get(`${PRODUCT_REMOVALS}?changedSince=${store2}&storeId=sto_a2`, KEYS.tenantAStore1).expect(404);
    await t.get(`${PRODUCTS}&changedSince=${store2}&storeId=sto_a2`, KEYS.tenantAStore1).expect(404);
    await t.get(`${STOCK_REMOVALS}?changedSince=${products}`, KEYS.tenantACategoriesOnly).expect(403);
    await t.get(`${PRODUCT_REMOVALS}?changedSince=${products}`, null).expect(401);
  });

  it('refuse a position older than the kept records once pruning passed it; pruning keeps what is inside the window', async () => {
    const before = await positionOf(PRODUCTS, KEYS.tenantA);
    await t.db.query(`DELETE FROM products WHERE id = 'prd_a1_beer'`);
    // One record made to look 40 days old, one fresh.
    await t.db.query(
      `UPDATE sync_removals SET removed_at = now() - interval '40 days' WHERE product_id = 'prd_a1_beer'`,
    );
    const after = await positionOf(PRODUCTS, KEYS.tenantA);
    await t.db.query(`DELETE FROM products WHERE id = 'prd_a1_bananas'`);
    const pruned = await t.app.get(SyncHousekeeping).prune();
    expect(pruned).toBeGreaterThanOrEqual(1);
    const refused = await t.get(`${PRODUCT_REMOVALS}?changedSince=${before}`, KEYS.tenantA).expect(400);
    expect(refused.body.error.details.errors[0]).toMatchObject({ name: 'changedSince' });
    expect(refused.body.error.details.errors[0].message).toMatch(/removal records.*full copy/);
    await t.get(`${PRODUCTS}&changedSince=${before}`, KEYS.tenantA).expect(400);
    expect(ids((await removals(`${PRODUCT_REMOVALS}?changedSince=${after}`, KEYS.tenantA)).rows)).toEqual([
      'prd_a1_bananas',
    ]);
  });

  it('refuse a removals walk whose records were pruned under it (pruning between its pages)', async () => {
    const position = await positionOf(PRODUCTS, KEYS.tenantA);
    const victims = (
      await t.db.query(`SELECT id FROM products WHERE tenant_id = 'ten_a' ORDER BY id DESC LIMIT 5`)
    ).map((r: { id: string }) => r.id);
    expect(victims).toHaveLength(5);
    await t.db.query(`DELETE FROM products WHERE id = ANY($1)`, [victims]);
    // The next round comes 35 days later (simulated): its removals walk reads page 1, then pruning runs.
    await t.db.query(
      `UPDATE sync_removals SET removed_at = removed_at - interval '35 days 1 hour' WHERE product_id = ANY($1)`,
      [victims],
    );
    const first = await t.get(`${PRODUCT_REMOVALS}?changedSince=${position}&pageSize=2`, KEYS.tenantA).expect(200);
    expect(first.body.rows).toHaveLength(2);
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.link ?? '')?.[1];
    expect(next).toBeDefined();
    expect(await t.app.get(SyncHousekeeping).prune()).toBeGreaterThanOrEqual(3);
    // The records of page 2 are gone: the walk is refused (a full copy), not ended short.
    const refused = await t.get(next!, KEYS.tenantA);
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.errors[0].message).toMatch(/removal records.*full copy/);
  });

  it('mark the stock row of a product whose stock level was given another store where foreign keys do not fire', async () => {
    const [{ id }] = await t.db.query(`SELECT p.id FROM products p JOIN stock_levels s ON s.product_id = p.id
      WHERE p.tenant_id = 'ten_a' AND p.store_id = 'sto_a1' ORDER BY p.id LIMIT 1`);
    const position = await positionOf(STOCK, KEYS.tenantAStore1);
    const replica = (sql: string): Promise<void> =>
      t.db.transaction(async (m) => {
        await m.query(`SET LOCAL session_replication_role = replica`);
        await m.query(sql, [id]);
      });
    await replica(`UPDATE stock_levels SET store_id = 'sto_a2' WHERE product_id = $1`);
    try {
      const round = await t.get(`${STOCK}&changedSince=${position}`, KEYS.tenantAStore1).expect(200);
      const row = round.body.rows.find((r: { productId: string }) => r.productId === id);
      expect(row).toMatchObject({ productId: id, trackStock: false });
    } finally {
      await replica(`UPDATE stock_levels SET store_id = 'sto_a1' WHERE product_id = $1`);
    }
  });

  it('list the products a store deleted where foreign keys do not fire left behind, once the client is narrowed', async () => {
    await t.db.query(`INSERT INTO stores (id, tenant_id, name) VALUES ('sto_a8', 'ten_a', 'A Eight')`);
    const columns = await productColumns();
    await t.db.query(`CREATE TEMP TABLE eight AS SELECT * FROM products WHERE id IN ('prd_a1_cola', 'prd_a1_diet')`);
    await t.db.query(`UPDATE eight SET id = 'prd_a8_' || id, store_id = 'sto_a8'`);
    await t.db.query(`INSERT INTO products (${columns}) SELECT ${columns} FROM eight`);
    await t.db.query(`DROP TABLE eight`);
    await t.db.query(`UPDATE api_clients SET allowed_store_ids = ARRAY['sto_a1', 'sto_a8'] WHERE id = 'cli_a_store1'`);
    try {
      // Deleted where the cascade does not run: its products stay, and the client still sees them.
      await t.db.transaction(async (m) => {
        await m.query(`SET LOCAL session_replication_role = replica`);
        await m.query(`DELETE FROM stores WHERE id = 'sto_a8'`);
      });
      const position = await positionOf(PRODUCTS, KEYS.tenantAStore1);
      await t.db.query(`UPDATE api_clients SET allowed_store_ids = ARRAY['sto_a1'] WHERE id = 'cli_a_store1'`);
      const gone = await removals(`${PRODUCT_REMOVALS}?changedSince=${position}`, KEYS.tenantAStore1);
      expect(ids(gone.rows)).toEqual(['prd_a8_prd_a1_cola', 'prd_a8_prd_a1_diet']);
      // Given back to it: no grant can name a deleted store, so older positions are refused.
      const narrowed = await positionOf(PRODUCTS, KEYS.tenantAStore1);
      await t.db.query(
        `UPDATE api_clients SET allowed_store_ids = ARRAY['sto_a1', 'sto_a8'] WHERE id = 'cli_a_store1'`,
      );
      const res = await t.get(`${PRODUCTS}&changedSince=${narrowed}`, KEYS.tenantAStore1).expect(400);
      expect(JSON.stringify(res.body)).toMatch(/marked no rows/);
    } finally {
      await t.db.query(`DELETE FROM products WHERE store_id = 'sto_a8'`);
      await t.db.query(`UPDATE api_clients SET allowed_store_ids = ARRAY['sto_a1'] WHERE id = 'cli_a_store1'`);
    }
  });
});

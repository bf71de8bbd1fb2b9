import { CATEGORY_LIST } from '../src/catalog/categories/categories.list.js';
import { PRODUCT_LIST } from '../src/catalog/products/products.list.js';
import { CATEGORY_NAMES, PRODUCT_NAMES, PROMOTION_LIST } from '../src/catalog/promotions/promotions.list.js';
import { fixedStatement } from '../src/database/statement.js';
import { STOCK_LIST } from '../src/inventory/stock/stock.list.js';
import type { FilterValues } from '../src/lists/list-definition.js';
import { ListEngine } from '../src/lists/list-engine.js';
import type { PageWindow } from '../src/lists/list-statements.js';
import type { DataScope } from '../src/tenancy/data-scope.js';
import { ScopedReader } from '../src/tenancy/scoped-reader.js';
import { testDataset } from './support/dataset.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * Every list and repository method on real PostgreSQL, for each kind of scope: the whole tenant, another
 * tenant, another store of the tenant, and a key limited to a list of stores (one of which belongs to
 * another tenant: the tenant condition still holds). A row outside the scope never comes back.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ dataset: testDataset() });
  await t.db
    .query(`INSERT INTO promotions (id, tenant_id, store_id, name, type, status, is_system_preset, conditions, actions, updated_at)
    VALUES ('pro_a2_x', 'ten_a', 'sto_a2', 'A2 deal', 'PERCENT_OFF', 'ACTIVE', false, '[]', '[]', now()),
           ('pro_b1_x', 'ten_b', 'sto_b1', 'B1 deal', 'PERCENT_OFF', 'ACTIVE', false, '[]', '[]', now())`);
});
afterAll(async () => t.close());

const scope = (tenantId: string, storeIds: string[] | null): DataScope =>
  ({ tenantId, storeIds, deadlineMs: Date.now() + 60_000 }) as unknown as DataScope;

const SCOPES = {
  'own tenant': { scope: scope('ten_a', null), stores: ['sto_a1', 'sto_a2'] },
  'other tenant': { scope: scope('ten_b', null), stores: ['sto_b1'] },
  'other store': { scope: scope('ten_a', ['sto_a2']), stores: ['sto_a2'] },
  'key limited to stores': { scope: scope('ten_a', ['sto_a2', 'sto_b1']), stores: ['sto_a2'] },
};
const CASES = Object.entries(SCOPES);
const engine = () => t.app.get(ListEngine);
const products = {
  list: (s: DataScope, filters: FilterValues, window: PageWindow) =>
    engine().read(PRODUCT_LIST, { scope: s, filters, window, sync: {} }),
  findById: (s: DataScope, id: string) => engine().findOne(PRODUCT_LIST, s, id),
};
const stock = {
  list: (s: DataScope, filters: FilterValues, window: PageWindow) =>
    engine().read(STOCK_LIST, { scope: s, filters, window, sync: {} }),
};
const all = { pageSize: 100, offset: 0 };
const parse = (rows: readonly string[]): Record<string, unknown>[] => rows.map((r) => JSON.parse(r));
const storesOf = (rows: Record<string, unknown>[]): string[] => [...new Set(rows.map((r) => String(r.storeId)))].sort();

describe.each(CASES)('in the scope of the %s', (_name, { scope: s, stores }) => {
  it('the product list returns only products of its stores, with the total of its stores', async () => {
    const listed = await products.list(s, { activeOnly: false }, { pageSize: 100, offset: 0 });
    const rows = parse(listed.rows);
    expect(storesOf(rows)).toEqual(stores);
    const [{ n }] = await t.db.query('SELECT count(*)::int AS n FROM products WHERE store_id = ANY($1)', [stores]);
    expect(listed.total).toBe(n);
  });

  it('the product list after an id continues within the scope', async () => {
    const listed = await products.list(s, { activeOnly: false }, { ...all, afterId: 'prd_a1_cola' });
    expect(storesOf(parse(listed.rows)).every((id) => stores.includes(id))).toBe(true);
  });

  it('a product by id is found only inside the scope', async () => {
    for (const [id, store] of [
      ['prd_a1_cola', 'sto_a1'],
      ['prd_a2_cola', 'sto_a2'],
      ['prd_b1_cola', 'sto_b1'],
    ]) {
      const found = await products.findById(s, id);
      expect({ id, found: found !== undefined }).toEqual({ id, found: stores.includes(store) });
    }
  });

  it('the stock list returns only stock rows of its stores, for every kind of list', async () => {
    for (const filter of [
      { activeOnly: false, lowStockOnly: false },
      { activeOnly: false, lowStockOnly: true },
      { activeOnly: true, lowStockOnly: true, sku: 'COLA-330' },
    ]) {
      const rows = parse((await stock.list(s, filter, all)).rows);
      expect(storesOf(rows).every((id) => stores.includes(id))).toBe(true);
    }
    expect(storesOf(parse((await stock.list(s, { activeOnly: false, lowStockOnly: false }, all)).rows))).toEqual(
      stores,
    );
  });

  it('the category list returns only categories of its stores', async () => {
    const rows = parse(await engine().all(CATEGORY_LIST, s, { activeOnly: false, sortBy: 'name' }));
    expect(storesOf(rows)).toEqual(stores);
  });

  it('the promotion list returns only promotions of its stores', async () => {
    const rows = parse(await engine().all(PROMOTION_LIST, s, {}));
    expect(storesOf(rows)).toEqual(stores.filter((id) => ['sto_a1', 'sto_a2', 'sto_b1'].includes(id)));
  });

  it('the names a promotion reads are only of products and categories of its stores', async () => {
    const products = parse(
      await engine().all(PRODUCT_NAMES, s, { ids: ['prd_a1_cola', 'prd_a2_cola', 'prd_b1_cola'] }),
    );
    const categories = parse(
      await engine().all(CATEGORY_NAMES, s, { ids: ['cat_a1_drinks', 'cat_a2_drinks', 'cat_b1_drinks'] }),
    );
    const storeOf = (id: unknown): string => String(id).replace(/^(prd|cat)_(\w\d)_.*$/, 'sto_$2');
    expect(products.map((r) => storeOf(r.id)).sort()).toEqual(stores);
    expect(categories.map((r) => storeOf(r.id)).sort()).toEqual(stores);
  });
});

describe('stock availability', () => {
  // The contract's derivation, with exact decimal comparisons (floating point would get 0.3 <= 0.3 wrong).
  it.each([
    [false, '50', '10', 'not_tracked'],
    [false, '-3', '10', 'not_tracked'],
    [true, '0', '10', 'out_of_stock'],
    [true, '0.000', '0', 'out_of_stock'],
    [true, '-2.500', '10', 'out_of_stock'],
    [true, '-0.001', '0', 'out_of_stock'],
    [true, '0.001', '10', 'low_stock'],
    [true, '10', '10', 'low_stock'],
    [true, '9.999', '10', 'low_stock'],
    [true, '10.001', '10', 'in_stock'],
    [true, '0.001', '0', 'in_stock'],
    [true, '0.3', '0.300', 'low_stock'],
    [true, '12345678901.001', '12345678901', 'in_stock'],
  ])('trackStock=%s quantity=%s reorderLevel=%s is %s', async (track, quantity, reorder, expected) => {
    await t.db.query(
      'UPDATE stock_levels SET track_stock = $1, quantity = $2, reorder_level = $3 WHERE product_id = $4',
      [track, quantity, reorder, 'prd_a1_juice'],
    );
    const listed = await stock.list(
      scope('ten_a', null),
      { activeOnly: true, lowStockOnly: false, productId: 'prd_a1_juice' },
      all,
    );
    expect(JSON.parse(listed.rows[0]).availability).toBe(expected);
    const low = await stock.list(scope('ten_a', ['sto_a1']), { activeOnly: true, lowStockOnly: true }, all);
    expect(parse(low.rows).some((r) => r.productId === 'prd_a1_juice')).toBe(expected === 'low_stock');
  });
});

describe('ScopedReader', () => {
  const reader = () => t.app.get(ScopedReader);
  const s = scope('ten_a', null);

  it.each([
    ['without a tenant condition', (t: string) => `SELECT p.id FROM products p WHERE p.id <> ${t}`],
    [
      'with it only in an inner join',
      (t: string) => `SELECT p.id FROM stores st JOIN products p ON p.tenant_id = ${t}`,
    ],
    ['with it behind an OR', (t: string) => `SELECT p.id FROM products p WHERE (p.tenant_id = ${t} OR true)`],
    [
      "with it on an outer join's nullable side only in WHERE",
      (t: string) =>
        `SELECT p.id FROM products p LEFT JOIN stock_levels s ON s.product_id = p.id WHERE p.tenant_id = ${t} AND s.tenant_id = ${t}`,
    ],
  ])('refuses a statement %s, and never runs it', async (_name, write) => {
    const unbound = fixedStatement<{ scope: DataScope }>((sql) => write(sql.param((i) => i.scope.tenantId)));
    await expect(reader().read(s, { cost: 'cheap' }, (db) => db.rows(unbound, { scope: s }))).rejects.toThrow(
      'not bound to the scope',
    );
  });

  it('refuses a statement without the store condition in a scope of stores', async () => {
    const oneStore = scope('ten_a', ['sto_a1']);
    const tenantOnly = fixedStatement<{ scope: DataScope }>((sql) => {
      const tenant = sql.param((i) => i.scope.tenantId);
      const store = sql.param((i) => i.scope.storeIds![0]);
      return `SELECT p.id FROM products p WHERE p.tenant_id = ${tenant} AND ${store}::text IS NOT NULL`;
    });
    await expect(
      reader().read(oneStore, { cost: 'cheap' }, (db) => db.rows(tenantOnly, { scope: oneStore })),
    ).rejects.toThrow('p.store_id = $2');
  });

  it("refuses a statement bound to another scope's tenant", async () => {
    const other = scope('ten_b', null);
    const bound = fixedStatement<{ scope: DataScope }>(
      (sql) => `SELECT id FROM products p WHERE p.tenant_id = ${sql.param((i) => i.scope.tenantId)}`,
    );
    await expect(reader().read(s, { cost: 'cheap' }, (db) => db.rows(bound, { scope: other }))).rejects.toThrow(
      'another scope',
    );
  });
});

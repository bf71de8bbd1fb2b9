import { FILLER_COUNT, KEYS, testDataset } from './support/dataset.js';
import { createTestApp, type TestApp } from './support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ dataset: testDataset() });
});
afterAll(async () => t.close());

type Row = { productId: string; availability: string; quantity: string; updatedAt: string };
const list = (query = '', key: string = KEYS.tenantA) => t.get(`/v1/inventory/stock${query}`, key);
const byId = async (query = '?pageSize=100'): Promise<Record<string, Row>> =>
  Object.fromEntries(((await list(query).expect(200)).body.rows as Row[]).map((r) => [r.productId, r]));

describe('GET /v1/inventory/stock', () => {
  it('returns the paginated wrapper and rows with exactly the decided keys, in order', async () => {
    const res = await list('?productId=prd_a1_cola').expect(200);
    expect(Object.keys(res.body)).toEqual(['rows', 'page', 'pageSize', 'total', 'totalPages']);
    expect(res.body.rows).toEqual([
      {
        productId: 'prd_a1_cola',
        storeId: 'sto_a1',
        sku: 'COLA-330',
        barcode: '5000112637922',
        productName: 'Cola 330ml can',
        trackStock: true,
        quantity: '48.000',
        lowStockThreshold: '12.000',
        reorderLevel: '12.000',
        availability: 'in_stock',
        updatedAt: '2026-10-03T07:00:00.000Z',
      },
    ]);
    expect(Object.keys(res.body.rows[0])).toEqual([
      'productId',
      'storeId',
      'sku',
      'barcode',
      'productName',
      'trackStock',
      'quantity',
      'lowStockThreshold',
      'reorderLevel',
      'availability',
      'updatedAt',
    ]);
  });

  it('derives availability at every boundary with exact decimals', async () => {
    const rows = await byId('?storeId=sto_a1&activeOnly=false');
    const rowsA2 = await byId('?storeId=sto_a2&sku=COLA-330');
    const vape = await byId('?productId=prd_a2_vape');
    expect(rows.prd_a1_cola).toMatchObject({ quantity: '48.000', availability: 'in_stock' });
    expect(rows.prd_a1_diet).toMatchObject({ quantity: '12.000', availability: 'low_stock' }); // equal to the reorder level
    expect(rows.prd_a1_juice).toMatchObject({ quantity: '0.000', availability: 'out_of_stock' });
    expect(rows.prd_a1_creme).toMatchObject({ quantity: '-2.500', availability: 'out_of_stock' });
    expect(rows.prd_a1_bananas).toMatchObject({ quantity: '0.001', availability: 'low_stock' });
    expect(rows.prd_a1_beer).toMatchObject({ quantity: '30.000', trackStock: false, availability: 'not_tracked' });
    expect(rows.prd_a1_old).toMatchObject({ availability: 'in_stock' });
    expect(rowsA2.prd_a2_cola).toMatchObject({ quantity: '12.001', reorderLevel: '12.000', availability: 'in_stock' });
    expect(vape.prd_a2_vape).toMatchObject({ quantity: '0.001', reorderLevel: '0.000', availability: 'in_stock' });
  });

  it("gives a product without a stock record a not_tracked row with zero quantities and the product's updatedAt", async () => {
    const rows = await byId('?productId=prd_a1_slash');
    expect(rows.prd_a1_slash).toEqual({
      productId: 'prd_a1_slash',
      storeId: 'sto_a1',
      sku: 'BS-1',
      barcode: null,
      productName: 'Back\\slash Snack',
      trackStock: false,
      quantity: '0.000',
      lowStockThreshold: '0.000',
      reorderLevel: '0.000',
      availability: 'not_tracked',
      updatedAt: '2026-10-01T08:00:00.000Z',
    });
  });

  it('lowStockOnly=true keeps exactly the low_stock rows; false filters nothing', async () => {
    const low = (await list('?lowStockOnly=true&pageSize=100').expect(200)).body;
    expect(low.rows.map((r: Row) => r.productId)).toEqual(['prd_a1_bananas', 'prd_a1_diet']);
    expect(low.total).toBe(2);
    const all = (await list('?pageSize=100&activeOnly=false').expect(200)).body;
    const everyLow = all.rows.filter((r: Row) => r.availability === 'low_stock').map((r: Row) => r.productId);
    expect(everyLow).toEqual(['prd_a1_bananas', 'prd_a1_diet']);
    expect((await list('?lowStockOnly=false').expect(200)).body.total).toBe((await list().expect(200)).body.total);
    expect((await list('?lowStockOnly=true', KEYS.tenantB).expect(200)).body.rows.map((r: Row) => r.productId)).toEqual(
      ['prd_b1_cola'],
    );
  });

  it("lowStockOnly follows every saved change of the product's isActive and of the stock, within the store scope", async () => {
    const ids = async (query: string, key: string = KEYS.tenantA): Promise<{ ids: string[]; total: number }> => {
      const body = (await list(query, key).expect(200)).body;
      return { ids: body.rows.map((r: Row) => r.productId), total: body.total };
    };
    expect(await ids('?lowStockOnly=true&storeId=sto_a1')).toEqual({
      ids: ['prd_a1_bananas', 'prd_a1_diet'],
      total: 2,
    });
    expect(await ids('?lowStockOnly=true', KEYS.tenantAStore1)).toEqual({
      ids: ['prd_a1_bananas', 'prd_a1_diet'],
      total: 2,
    });
    expect(await ids('?lowStockOnly=true&storeId=sto_a2')).toEqual({ ids: [], total: 0 });
    expect(await ids('?lowStockOnly=true&pageSize=1&page=2')).toEqual({ ids: ['prd_a1_diet'], total: 2 });
    try {
      await t.db.query(`UPDATE products SET is_active = false WHERE id = 'prd_a1_diet'`);
      expect(await ids('?lowStockOnly=true')).toEqual({ ids: ['prd_a1_bananas'], total: 1 });
      expect(await ids('?lowStockOnly=true&activeOnly=false')).toEqual({
        ids: ['prd_a1_bananas', 'prd_a1_diet'],
        total: 2,
      });
      await t.db.query(`UPDATE stock_levels SET quantity = 100 WHERE product_id = 'prd_a1_bananas'`);
      expect(await ids('?lowStockOnly=true')).toEqual({ ids: [], total: 0 });
      // With another filter the answer comes from the products' side: the same rows.
      expect(await ids('?lowStockOnly=true&activeOnly=false&sku=COLA-330-D')).toEqual({
        ids: ['prd_a1_diet'],
        total: 1,
      });
    } finally {
      await t.db.query(`UPDATE products SET is_active = true WHERE id = 'prd_a1_diet'`);
      await t.db.query(`UPDATE stock_levels SET quantity = 0.001 WHERE product_id = 'prd_a1_bananas'`);
    }
    expect(await ids('?lowStockOnly=true')).toEqual({ ids: ['prd_a1_bananas', 'prd_a1_diet'], total: 2 });
  });

  it('counts every product in scope, with or without stock, and pages by product id', async () => {
    const activeA = 7 + 2 + FILLER_COUNT;
    const first = (await list('?pageSize=100').expect(200)).body;
    expect(first).toMatchObject({ page: 1, pageSize: 100, total: activeA, totalPages: 2 });
    const second = (await list('?pageSize=100&page=2').expect(200)).body;
    expect(second.rows).toHaveLength(activeA - 100);
    const ids = [...first.rows, ...second.rows].map((r: Row) => r.productId);
    expect(new Set(ids).size).toBe(activeA);
    expect([...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(ids);
    expect((await list('?pageSize=100&page=9').expect(200)).body).toEqual({
      rows: [],
      page: 9,
      pageSize: 100,
      total: activeA,
      totalPages: 2,
    });
    expect((await list('?storeId=sto_a1&pageSize=2').expect(200)).body).toMatchObject({ total: 7, totalPages: 4 });
    expect((await list('?storeId=sto_a1&pageSize=1&page=7').expect(200)).body.rows).toHaveLength(1);
  });

  it('filters by productId, sku, barcode and categoryId exactly, and activeOnly', async () => {
    const ids = async (query: string): Promise<string[]> =>
      (await list(query).expect(200)).body.rows.map((r: Row) => r.productId);
    expect(await ids('?sku=COLA-330')).toEqual(['prd_a1_cola', 'prd_a2_cola']);
    expect(await ids('?barcode=5000112637939')).toEqual(['prd_a1_diet']);
    expect(await ids('?categoryId=cat_a1_soft')).toEqual(['prd_a1_cola', 'prd_a1_diet']);
    expect(await ids('?categoryId=cat_a1_soft&activeOnly=false')).toEqual(['prd_a1_cola', 'prd_a1_diet', 'prd_a1_old']);
    expect(await ids('?productId=prd_a1_old')).toEqual([]);
    expect(await ids('?productId=prd_b1_cola')).toEqual([]);
  });

  it('updatedSince uses the later of the product and stock update times', async () => {
    const ids = async (query: string): Promise<string[]> =>
      (await list(query).expect(200)).body.rows.map((r: Row) => r.productId);
    const rows = await byId('?productId=prd_a1_bananas');
    expect(rows.prd_a1_bananas.updatedAt).toBe('2026-10-10T10:00:00.000Z'); // stock newer than product
    expect((await byId('?productId=prd_a2_vape')).prd_a2_vape.updatedAt).toBe('2026-10-06T00:00:00.000Z'); // product newer than stock
    expect(await ids('?updatedSince=2026-10-06T00:00:00Z')).toEqual(['prd_a1_bananas', 'prd_a2_vape']);
    expect(await ids('?updatedSince=2026-10-10T10:00:00.000Z')).toEqual(['prd_a1_bananas']);
    expect(await ids('?updatedSince=2026-10-10T10:00:00.001Z')).toEqual([]);
    expect(await ids('?updatedSince=2026-10-10T10:00:00.0000004Z')).toEqual([]);
    expect(await ids('?updatedSince=2026-10-11T03:00:00.000%2B17:00')).toEqual(['prd_a1_bananas']);

    // Only the stock changed: the row moves forward.
    await t.db.query(
      `UPDATE stock_levels SET quantity = 47, updated_at = '2026-11-01T00:00:00.000Z' WHERE product_id = 'prd_a1_cola'`,
    );
    expect(await ids('?updatedSince=2026-10-20T00:00:00Z')).toEqual(['prd_a1_cola']);
    // Only the product changed (and a product without stock): the row moves forward too.
    await t.db.query(
      `UPDATE products SET updated_at = '2026-11-02T00:00:00.000Z' WHERE id IN ('prd_a1_diet', 'prd_a1_slash')`,
    );
    expect(await ids('?updatedSince=2026-10-20T00:00:00Z')).toEqual(['prd_a1_cola', 'prd_a1_diet', 'prd_a1_slash']);
    expect((await byId('?productId=prd_a1_diet')).prd_a1_diet.updatedAt).toBe('2026-11-02T00:00:00.000Z');
  });

  it("scopes to the tenant and the key's stores; a foreign or unknown store is a 404", async () => {
    expect((await list('?pageSize=100', KEYS.tenantAStore1).expect(200)).body.total).toBe(7);
    expect((await list('', KEYS.tenantB).expect(200)).body.rows.map((r: Row) => r.productId)).toEqual(['prd_b1_cola']);
    for (const [query, key] of [
      ['?storeId=sto_b1', KEYS.tenantA],
      ['?storeId=sto_a2', KEYS.tenantAStore1],
      ['?storeId=sto_zz', KEYS.tenantA],
    ] as const) {
      expect((await list(query, key).expect(404)).body.error.code).toBe('not_found');
    }
  });

  it('validates its parameters', async () => {
    const res = await list('?lowStockOnly=yes&productId=a%2Fb&pageSize=0&updatedSince=2026-10-01&categoryID=x').expect(
      400,
    );
    expect(res.body.error.details.errors.map((e: { name: string }) => e.name).sort()).toEqual([
      'categoryID',
      'lowStockOnly',
      'pageSize',
      'productId',
      'updatedSince',
    ]);
  });

  it('needs inventory.stock.read', async () => {
    const res = await list('', KEYS.tenantACategoriesOnly).expect(403);
    expect(res.body.error.details).toEqual({ requiredScopes: ['inventory.stock.read'] });
  });
});

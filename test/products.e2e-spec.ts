import { readFileSync } from 'node:fs';
import { KEYS, FILLER_COUNT, testDataset } from './support/dataset.js';
import { createTestApp, type TestApp } from './support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ dataset: testDataset() });
});
afterAll(async () => t.close());

const PRODUCT_SCHEMA = JSON.parse(readFileSync(new URL('../openapi.json', import.meta.url), 'utf8')).components.schemas
  .Product as { properties: Record<string, unknown> };
const ids = (body: { rows: { id: string }[] }): string[] => body.rows.map((r) => r.id);
const list = (query: string, key: string = KEYS.tenantA) => t.get(`/v1/catalog/products${query}`, key);

// Tenant A: 8 products in sto_a1 (one inactive), 2 + FILLER_COUNT in sto_a2.
const TENANT_A_ACTIVE = 7 + 2 + FILLER_COUNT;

describe('GET /v1/catalog/products', () => {
  it('returns the exact Product shape, keys in the specified order, with 2-decimal money and ms timestamps', async () => {
    const res = await list('?sku=COLA-330&storeId=sto_a1').expect(200);
    expect(Object.keys(res.body)).toEqual(['rows', 'page', 'pageSize', 'total', 'totalPages']);
    expect(res.body).toMatchObject({ page: 1, pageSize: 50, total: 1, totalPages: 1 });
    const [row] = res.body.rows;
    // Every key, in the order of the committed document's Product (generated from ProductView, and
    // reviewed there): a new column needs no edit here. The values below are every one the test data sets.
    expect(Object.keys(row)).toEqual(Object.keys(PRODUCT_SCHEMA.properties));
    expect(row).toMatchObject({
      id: 'prd_a1_cola',
      storeId: 'sto_a1',
      categoryId: 'cat_a1_soft',
      name: 'Cola 330ml can',
      sku: 'COLA-330',
      barcode: '5000112637922',
      brand: 'Fizz',
      size: '330ml',
      unitType: 'item',
      sellingPriceGross: '1.20',
      sellingPriceNet: '1.00',
      taxCategory: 'STANDARD',
      vatRate: { id: 'vat_a_std', code: 'S', name: 'Standard rate', percentage: '20.00' },
      isActive: true,
      variablePrice: false,
      ageRestricted: false,
      alcoholRestricted: false,
      tobaccoRestricted: false,
      vapeRestricted: false,
      updatedAt: '2026-10-02T09:30:00.000Z',
    });
    expect(Object.keys(row.vatRate)).toEqual(['id', 'code', 'name', 'percentage']);
  });

  it('pads money and VAT to 2 decimals and keeps nulls as null', async () => {
    const juice = (await t.get('/v1/catalog/products/prd_a1_juice', KEYS.tenantA).expect(200)).body;
    expect(juice).toMatchObject({
      sellingPriceGross: '2.10',
      sellingPriceNet: '2.00',
      barcode: null,
      vatRate: { percentage: '5.50' },
    });
    const bananas = (await t.get('/v1/catalog/products/prd_a1_bananas', KEYS.tenantA).expect(200)).body;
    expect(bananas).toMatchObject({
      vatRate: null,
      categoryId: null,
      brand: null,
      size: null,
      unitType: 'kg',
      variablePrice: true,
    });
  });

  it('keeps the four restriction flags independent', async () => {
    const beer = (await t.get('/v1/catalog/products/prd_a1_beer', KEYS.tenantA).expect(200)).body;
    expect(beer).toMatchObject({
      ageRestricted: true,
      alcoholRestricted: true,
      tobaccoRestricted: false,
      vapeRestricted: false,
    });
    const vape = (await t.get('/v1/catalog/products/prd_a2_vape', KEYS.tenantA).expect(200)).body;
    expect(vape).toMatchObject({
      ageRestricted: true,
      alcoholRestricted: false,
      tobaccoRestricted: false,
      vapeRestricted: true,
    });
  });

  it('lists every active product of every allowed store, ordered by id in byte order, with exact totals', async () => {
    const res = await list('?pageSize=100').expect(200);
    expect(res.body.total).toBe(TENANT_A_ACTIVE);
    expect(res.body.totalPages).toBe(Math.ceil(TENANT_A_ACTIVE / 100));
    const got = ids(res.body);
    expect(got).toHaveLength(100);
    expect([...got].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(got);
    expect(got).not.toContain('prd_a1_old');
    expect(got.some((id) => id.startsWith('prd_b'))).toBe(false);
  });

  it('pages: last page, page past the end, pageSize 1', async () => {
    const last = await list(`?pageSize=100&page=2`).expect(200);
    expect(last.body.rows).toHaveLength(TENANT_A_ACTIVE - 100);
    expect(last.body).toMatchObject({ page: 2, pageSize: 100, total: TENANT_A_ACTIVE, totalPages: 2 });
    const past = await list(`?pageSize=100&page=3`).expect(200);
    expect(past.body).toEqual({ rows: [], page: 3, pageSize: 100, total: TENANT_A_ACTIVE, totalPages: 2 });
    const one = await list('?pageSize=1&page=2').expect(200);
    expect(one.body).toMatchObject({ page: 2, pageSize: 1, total: TENANT_A_ACTIVE, totalPages: TENANT_A_ACTIVE });
    const all = ids((await list('?pageSize=3').expect(200)).body);
    expect(ids(one.body)).toEqual([all[1]]);
  });

  it('gives totalPages 1 and empty rows when nothing matches', async () => {
    const res = await list('?sku=NOPE').expect(200);
    expect(res.body).toEqual({ rows: [], page: 1, pageSize: 50, total: 0, totalPages: 1 });
  });

  it('activeOnly=false includes inactive products; activeOnly=true (default) hides them', async () => {
    expect(ids((await list('?sku=OLD-1').expect(200)).body)).toEqual([]);
    expect(ids((await list('?sku=OLD-1&activeOnly=true').expect(200)).body)).toEqual([]);
    expect(ids((await list('?sku=OLD-1&activeOnly=false').expect(200)).body)).toEqual(['prd_a1_old']);
    expect((await list('?activeOnly=false').expect(200)).body.total).toBe(TENANT_A_ACTIVE + 1);
  });

  it('filters by storeId, categoryId (own category only), sku and barcode exactly', async () => {
    expect((await list('?storeId=sto_a1').expect(200)).body.total).toBe(7);
    expect(ids((await list('?categoryId=cat_a1_soft').expect(200)).body)).toEqual(['prd_a1_cola', 'prd_a1_diet']);
    expect(ids((await list('?categoryId=cat_a1_drinks').expect(200)).body)).toEqual(['prd_a1_beer']);
    expect(ids((await list('?sku=COLA-330').expect(200)).body)).toEqual(['prd_a1_cola', 'prd_a2_cola']);
    expect(ids((await list('?sku=cola-330').expect(200)).body)).toEqual([]);
    expect(ids((await list('?sku=COLA').expect(200)).body)).toEqual([]);
    expect(ids((await list('?barcode=5000112637922').expect(200)).body)).toEqual(['prd_a1_cola', 'prd_a2_cola']);
    expect(ids((await list('?barcode=5000112637922&storeId=sto_a2').expect(200)).body)).toEqual(['prd_a2_cola']);
    expect(ids((await list('?sku=COLA-330&categoryId=cat_a2_drinks').expect(200)).body)).toEqual(['prd_a2_cola']);
  });

  it('filters updatedSince inclusively, at millisecond precision and with offsets', async () => {
    expect(ids((await list('?updatedSince=2026-10-05T12:00:00.123Z').expect(200)).body)).toEqual([
      'prd_a1_diet',
      'prd_a2_vape',
    ]);
    expect(ids((await list('?updatedSince=2026-10-05T12:00:00.124Z').expect(200)).body)).toEqual(['prd_a2_vape']);
    expect(ids((await list('?updatedSince=2026-10-05T13:00:00.123%2B01:00').expect(200)).body)).toEqual([
      'prd_a1_diet',
      'prd_a2_vape',
    ]);
    expect(ids((await list('?updatedSince=2026-10-05T12:00:00.1231Z').expect(200)).body)).toEqual(['prd_a2_vape']);
    // Finer than microseconds (PostgreSQL would round it onto .123) and offsets past PostgreSQL's ±15:59.
    expect(ids((await list('?updatedSince=2026-10-05T12:00:00.1230004Z').expect(200)).body)).toEqual(['prd_a2_vape']);
    expect(ids((await list('?updatedSince=2026-10-06T08:00:00.123%2B20:00').expect(200)).body)).toEqual([
      'prd_a1_diet',
      'prd_a2_vape',
    ]);
    expect(ids((await list('?updatedSince=2026-10-04T16:00:00.124-20:00').expect(200)).body)).toEqual(['prd_a2_vape']);
  });

  describe('q', () => {
    const search = async (q: string, extra = ''): Promise<string[]> =>
      ids((await list(`?q=${encodeURIComponent(q)}&storeId=sto_a1${extra}`).expect(200)).body);

    it('matches a case-insensitive substring of name, sku, barcode or brand', async () => {
      expect(await search('cola')).toEqual(['prd_a1_cola', 'prd_a1_diet']);
      expect(await search('COLA-330-d')).toEqual(['prd_a1_diet']);
      expect(await search('637939')).toEqual(['prd_a1_diet']);
      expect(await search('brewster')).toEqual(['prd_a1_beer']);
      expect(await search('CRÈME')).toEqual(['prd_a1_creme']);
    });

    it('requires every term to match some field', async () => {
      expect(await search('fizz diet')).toEqual(['prd_a1_diet']);
      expect(await search('  fizz   330ml  ')).toEqual(['prd_a1_cola', 'prd_a1_diet']);
      expect(await search('fizz sunny')).toEqual([]);
      expect(await search('fizz', '&activeOnly=false')).toEqual(['prd_a1_cola', 'prd_a1_diet', 'prd_a1_old']);
    });

    it('treats %, _ and \\ as literal characters', async () => {
      expect(await search('100%')).toEqual(['prd_a1_juice']);
      expect(await search('%')).toEqual(['prd_a1_juice']);
      expect(await search('OJ_1')).toEqual(['prd_a1_juice']);
      expect(await search('_')).toEqual(['prd_a1_juice']);
      expect(await search('COLA_330')).toEqual([]);
      expect(await search('k\\s')).toEqual(['prd_a1_slash']);
      expect(await search('\\')).toEqual(['prd_a1_slash']);
    });

    it('refuses more than 10 terms and white space only', async () => {
      const eleven = Array.from({ length: 11 }, (_, i) => `t${i}`).join(' ');
      const res = await list(`?q=${encodeURIComponent(eleven)}`).expect(400);
      expect(res.body.error.details.errors).toEqual([
        { in: 'query', name: 'q', message: expect.stringContaining('10') },
      ]);
      await list(`?q=${encodeURIComponent(Array.from({ length: 10 }, () => 'a').join(' '))}`).expect(200);
      await list('?q=%20%20').expect(400);
    });
  });
});

describe('GET /v1/catalog/products/{id}', () => {
  it('returns one product, inactive ones included', async () => {
    const res = await t.get('/v1/catalog/products/prd_a1_old', KEYS.tenantA).expect(200);
    expect(res.body).toMatchObject({ id: 'prd_a1_old', isActive: false });
  });

  it("answers the same 404 for an unknown product, another tenant's and a store outside the key's list", async () => {
    const unknown = await t.get('/v1/catalog/products/prd_nope', KEYS.tenantA).expect(404);
    const otherTenant = await t.get('/v1/catalog/products/prd_b1_cola', KEYS.tenantA).expect(404);
    const otherStore = await t.get('/v1/catalog/products/prd_a2_cola', KEYS.tenantAStore1).expect(404);
    for (const res of [unknown, otherTenant, otherStore]) {
      expect(res.body.error).toEqual({
        code: 'not_found',
        message: unknown.body.error.message,
        details: {},
        requestId: res.headers['x-request-id'],
      });
    }
    await t.get('/v1/catalog/products/prd_a1_cola', KEYS.tenantAStore1).expect(200);
    await t.get('/v1/catalog/products/prd_b1_cola', KEYS.tenantB).expect(200);
  });

  it('refuses a malformed id with a 400 naming the path parameter', async () => {
    const res = await t.get('/v1/catalog/products/bad%20id', KEYS.tenantA).expect(400);
    expect(res.body.error.details.errors).toEqual([{ in: 'path', name: 'id', message: expect.any(String) }]);
    await t.get(`/v1/catalog/products/${'x'.repeat(129)}`, KEYS.tenantA).expect(400);
    await t.get(`/v1/catalog/products/${'x'.repeat(128)}`, KEYS.tenantA).expect(404);
  });
});

describe('store scoping', () => {
  it("answers 404 for a store of another tenant, an unknown store and a store outside the key's list", async () => {
    for (const [query, key] of [
      ['?storeId=sto_b1', KEYS.tenantA],
      ['?storeId=sto_nope', KEYS.tenantA],
      ['?storeId=sto_a2', KEYS.tenantAStore1],
      ['?storeId=sto_a1', KEYS.tenantANoStores],
    ] as const) {
      const res = await list(query, key).expect(404);
      expect(res.body.error.code).toBe('not_found');
    }
  });

  it('limits a store-restricted key to its stores and a key with no stores to nothing', async () => {
    const res = await list('?pageSize=100', KEYS.tenantAStore1).expect(200);
    expect(res.body.total).toBe(7);
    expect(res.body.rows.every((r: { storeId: string }) => r.storeId === 'sto_a1')).toBe(true);
    expect((await list('', KEYS.tenantANoStores).expect(200)).body).toEqual({
      rows: [],
      page: 1,
      pageSize: 50,
      total: 0,
      totalPages: 1,
    });
  });

  it("never shows another tenant's products, whatever the filters", async () => {
    const b = await list('?sku=COLA-330', KEYS.tenantB).expect(200);
    expect(ids(b.body)).toEqual(['prd_b1_cola']);
    expect(b.body.rows[0].sellingPriceGross).toBe('1.19');
    expect(ids((await list('?q=cola&pageSize=100', KEYS.tenantB).expect(200)).body)).toEqual(['prd_b1_cola']);
  });
});

describe('totals from the maintained product counts', () => {
  it('stay exact when products are added, moved, deactivated and deleted, by any writer', async () => {
    const totals = async (): Promise<number[]> => [
      (await list('').expect(200)).body.total,
      (await list('?activeOnly=false').expect(200)).body.total,
      (await list('?storeId=sto_a1').expect(200)).body.total,
      (await t.get('/v1/inventory/stock?storeId=sto_a2', KEYS.tenantA).expect(200)).body.total,
    ];
    const counted = async (): Promise<number[]> => {
      const [row] = await t.db.query(`SELECT
        count(*) FILTER (WHERE tenant_id = 'ten_a' AND is_active)::int AS a,
        count(*) FILTER (WHERE tenant_id = 'ten_a')::int AS b,
        count(*) FILTER (WHERE store_id = 'sto_a1' AND is_active)::int AS c,
        count(*) FILTER (WHERE store_id = 'sto_a2' AND is_active)::int AS d FROM products`);
      return [row.a, row.b, row.c, row.d];
    };
    expect(await totals()).toEqual(await counted());
    await t.db
      .query(`INSERT INTO products (id, tenant_id, store_id, name, sku, unit_type, selling_price_gross, selling_price_net, tax_category,
      is_active, variable_price, age_restricted, alcohol_restricted, tobacco_restricted, vape_restricted, updated_at)
      SELECT 'prd_a1_new' || g, 'ten_a', 'sto_a1', 'New ' || g, 'NEW-' || g, 'item', 1, 1, 'STANDARD', g % 2 = 0,
             false, false, false, false, false, now()
      FROM generate_series(1, 5) g`);
    await t.db.query(`UPDATE products SET store_id = 'sto_a2' WHERE id = 'prd_a1_new1'`);
    await t.db.query(`UPDATE products SET is_active = NOT is_active WHERE id IN ('prd_a1_new2', 'prd_a1_new3')`);
    await t.db.query(`DELETE FROM products WHERE id = 'prd_a1_new4'`);
    expect(await totals()).toEqual(await counted());
    await t.db.query(`DELETE FROM products WHERE id LIKE 'prd_a1_new%'`);
    expect(await totals()).toEqual(await counted());
  });
});

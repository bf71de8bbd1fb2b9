import { KEYS, testDataset } from './support/dataset.js';
import { createTestApp, type TestApp } from './support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ dataset: testDataset() });
});
afterAll(async () => t.close());

const list = (query = '', key: string = KEYS.tenantA) => t.get(`/v1/catalog/categories${query}`, key);
const ids = (body: { id: string }[]): string[] => body.map((c) => c.id);

describe('GET /v1/catalog/categories', () => {
  it('returns a JSON array of categories with exactly the contract keys, in order', async () => {
    const res = await list('?storeId=sto_a1&parentCategoryId=cat_a1_drinks').expect(200);
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body[0]).toEqual({
      id: 'cat_a1_juice',
      storeId: 'sto_a1',
      parentCategoryId: 'cat_a1_drinks',
      name: 'juices',
      code: null,
      description: null,
      sortOrder: 5,
      isActive: true,
      updatedAt: '2026-10-01T08:00:00.000Z',
    });
    expect(Object.keys(res.body[0])).toEqual([
      'id',
      'storeId',
      'parentCategoryId',
      'name',
      'code',
      'description',
      'sortOrder',
      'isActive',
      'updatedAt',
    ]);
    const drinks = (await list('?storeId=sto_a1').expect(200)).body.find(
      (c: { id: string }) => c.id === 'cat_a1_drinks',
    );
    expect(drinks).toMatchObject({ code: 'DR', description: 'All drinks', parentCategoryId: null });
  });

  it('orders by sortOrder, then lower-case name, then id in byte order (the default and sortBy=sortOrder)', async () => {
    const expected = [
      'cat_a1_juice',
      'cat_a1_soft',
      'cat_a1_desserts',
      'cat_a1_drinks',
      'cat_a2_drinks',
      'cat_a1_snacks_Y',
      'cat_a1_snacks_x',
    ];
    expect(ids((await list().expect(200)).body)).toEqual(expected);
    expect(ids((await list('?sortBy=sortOrder').expect(200)).body)).toEqual(expected);
  });

  it('sortBy=name orders by lower-case name, then id', async () => {
    expect(ids((await list('?sortBy=name').expect(200)).body)).toEqual([
      'cat_a1_desserts',
      'cat_a1_drinks',
      'cat_a2_drinks',
      'cat_a1_juice',
      'cat_a1_snacks_Y',
      'cat_a1_snacks_x',
      'cat_a1_soft',
    ]);
  });

  it('hides inactive categories unless activeOnly=false, and never returns archived ones', async () => {
    expect(ids((await list('?storeId=sto_a1').expect(200)).body)).not.toContain('cat_a1_seasonal');
    const all = ids((await list('?storeId=sto_a1&activeOnly=false').expect(200)).body);
    expect(all[0]).toBe('cat_a1_seasonal');
    expect(all).toHaveLength(7);
    expect(all.filter((id) => id.includes('archived'))).toEqual([]);
    expect((await list('?storeId=sto_a1&activeOnly=false').expect(200)).body[0]).toMatchObject({ isActive: false });
  });

  it('filters by parentCategoryId exactly (children only, case-sensitive)', async () => {
    expect(ids((await list('?parentCategoryId=cat_a1_drinks').expect(200)).body)).toEqual([
      'cat_a1_juice',
      'cat_a1_soft',
    ]);
    expect(ids((await list('?parentCategoryId=CAT_A1_DRINKS').expect(200)).body)).toEqual([]);
    expect(ids((await list('?parentCategoryId=cat_b1_drinks').expect(200)).body)).toEqual([]);
  });

  it("scopes to the tenant and the key's stores", async () => {
    expect(ids((await list('', KEYS.tenantB).expect(200)).body)).toEqual(['cat_b1_drinks']);
    expect(ids((await list('', KEYS.tenantAStore1).expect(200)).body).every((id) => id.startsWith('cat_a1_'))).toBe(
      true,
    );
    expect((await list('', KEYS.tenantANoStores).expect(200)).body).toEqual([]);
    for (const [query, key] of [
      ['?storeId=sto_b1', KEYS.tenantA],
      ['?storeId=sto_a2', KEYS.tenantAStore1],
      ['?storeId=nope', KEYS.tenantA],
    ] as const) {
      expect((await list(query, key).expect(404)).body.error.code).toBe('not_found');
    }
  });

  it('validates sortBy, ids and unknown parameters', async () => {
    for (const query of [
      '?sortBy=foo',
      '?sortBy=NAME',
      '?sortBy=',
      '?parentCategoryId=a%20b',
      '?activeOnly=1',
      '?page=1',
      '?sortBy=name&sortBy=name',
    ]) {
      const res = await list(query).expect(400);
      expect(res.body.error.code).toBe('validation_failed');
      expect(res.body.error.details.errors).toHaveLength(1);
    }
  });

  it('needs catalog.categories.read', async () => {
    const res = await list('', KEYS.tenantAProductsOnly).expect(403);
    expect(res.body.error.details).toEqual({ requiredScopes: ['catalog.categories.read'] });
    expect((await list('', KEYS.tenantACategoriesOnly).expect(200)).body.length).toBeGreaterThan(0);
  });
});

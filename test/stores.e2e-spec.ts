import { KEYS, testDataset } from './support/dataset.js';
import { seededRandom } from './support/sync-harness.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * GET /v1/catalog/stores: the stores a key may read, with every key shape (every store of its
 * tenant, one store, a list of stores, none), never another tenant's; paged and cursor-linked like
 * the other lists; its errors. Responses are checked against openapi.json by the test app.
 * STORES_SEED=n replays the generated walks.
 */
const SEED = Number(process.env.STORES_SEED ?? Math.floor(Math.random() * 2 ** 31));

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ dataset: testDataset(), env: { RATE_LIMIT_PER_MINUTE: '1000000' } });
  // A third store of tenant A, outside every allow-list, and a key limited to a list of two stores
  // (set before the key is first used: no cache holds it yet).
  await t.db.query(`INSERT INTO stores (id, tenant_id, name) VALUES ('sto_a3', 'ten_a', 'A Three')`);
  await t.db.query(`UPDATE api_clients SET allowed_store_ids = '{sto_a1,sto_a2}' WHERE id = 'cli_a_products'`);
});
afterAll(async () => t.close());

type Page = { rows: { id: string; name: string }[]; page: number; pageSize: number; total: number; totalPages: number };
const list = (query: string, key: string = KEYS.tenantA) => t.get(`/v1/catalog/stores${query}`, key);
const ids = (body: Page): string[] => body.rows.map((r) => r.id);
const next = (link: string | undefined): string | undefined => /<([^>]+)>; rel="next"/.exec(link ?? '')?.[1];

/** Every key shape: the stores it may read, in id order. */
const SHAPES: [shape: string, key: string, stores: string[]][] = [
  ['every store of tenant A', KEYS.tenantA, ['sto_a1', 'sto_a2', 'sto_a3']],
  ['one store', KEYS.tenantAStore1, ['sto_a1']],
  ['a list of stores (and only catalog.products.read)', KEYS.tenantAProductsOnly, ['sto_a1', 'sto_a2']],
  ['no store', KEYS.tenantANoStores, []],
  ['every store of tenant B', KEYS.tenantB, ['sto_b1']],
  ['only catalog.categories.read', KEYS.tenantACategoriesOnly, ['sto_a1', 'sto_a2', 'sto_a3']],
];

describe('GET /v1/catalog/stores', () => {
  it('answers the page shape with { id, name } rows in id order', async () => {
    const res = await list('').expect(200);
    expect(Object.keys(res.body)).toEqual(['rows', 'page', 'pageSize', 'total', 'totalPages']);
    expect(res.body).toEqual({
      rows: [
        { id: 'sto_a1', name: 'A One' },
        { id: 'sto_a2', name: 'A Two' },
        { id: 'sto_a3', name: 'A Three' },
      ],
      page: 1,
      pageSize: 50,
      total: 3,
      totalPages: 1,
    });
    for (const row of res.body.rows) expect(Object.keys(row)).toEqual(['id', 'name']);
    expect(res.headers.link).toBe('</v1/catalog/stores>; rel="first"');
    // Stores are not synced: no position is handed out.
    expect(res.headers['sync-position']).toBeUndefined();
  });

  it.each(SHAPES)('with a key of %s: exactly its stores, never another tenant’s', async (_shape, key, stores) => {
    const body = (await list('', key).expect(200)).body as Page;
    expect({ ids: ids(body), total: body.total }).toEqual({ ids: stores, total: stores.length });
  });

  it('narrows to storeId; a store outside the key, of another tenant or unknown is the same 404', async () => {
    expect(ids((await list('?storeId=sto_a2').expect(200)).body)).toEqual(['sto_a2']);
    expect(ids((await list('?storeId=sto_a2', KEYS.tenantAProductsOnly).expect(200)).body)).toEqual(['sto_a2']);
    const notFound = [
      list('?storeId=sto_a2', KEYS.tenantAStore1),
      list('?storeId=sto_a3', KEYS.tenantAProductsOnly),
      list('?storeId=sto_b1'),
      list('?storeId=sto_nope'),
      list('?storeId=sto_a1', KEYS.tenantANoStores),
    ];
    for (const res of await Promise.all(notFound)) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
  });

  it('walks by Link next cursors exactly the rows of the page-number walk (generated page sizes and keys)', async () => {
    const random = seededRandom(SEED);
    for (let n = 0; n < 12; n++) {
      const [shape, key, stores] = SHAPES[Math.floor(random() * SHAPES.length)];
      const pageSize = 1 + Math.floor(random() * 3);
      const byCursor: string[] = [];
      let path: string | undefined = `/v1/catalog/stores?pageSize=${pageSize}`;
      let pages = 0;
      while (path !== undefined) {
        const res = await t.get(path, key).expect(200);
        byCursor.push(...ids(res.body));
        path = next(res.headers.link);
        pages++;
      }
      const byNumber: string[] = [];
      for (let page = 1; page <= Math.max(1, Math.ceil(stores.length / pageSize)); page++) {
        byNumber.push(...ids((await list(`?pageSize=${pageSize}&page=${page}`, key).expect(200)).body));
      }
      expect({ seed: SEED, shape, pageSize, byCursor, pages }).toEqual({
        seed: SEED,
        shape,
        pageSize,
        byCursor: stores,
        pages: Math.max(1, Math.ceil(stores.length / pageSize)),
      });
      expect(byNumber).toEqual(stores);
    }
  });

  it('refuses a cursor of another client, one with page, and an altered one (400 naming cursor)', async () => {
    const first = await list('?pageSize=1').expect(200);
    const cursor = /cursor=([^&>]+)/.exec(first.headers.link)![1];
    expect(ids((await list(`?pageSize=1&cursor=${cursor}`).expect(200)).body)).toEqual(['sto_a2']);
    for (const res of [
      await list(`?pageSize=1&cursor=${cursor}`, KEYS.tenantAProductsOnly),
      await list(`?pageSize=1&cursor=${cursor}&page=2`),
      await list(`?pageSize=1&cursor=${cursor.slice(0, -2)}xx`),
    ]) {
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body.error.details)).toContain('cursor');
    }
  });

  it('refuses what it does not take: filters of other lists, changedSince, a bad page size (400)', async () => {
    for (const query of ['?activeOnly=false', '?changedSince=sp_x', '?pageSize=0', '?pageSize=101', '?name=A']) {
      const res = await list(query).expect(400);
      expect(res.body.error.code).toBe('validation_failed');
    }
  });

  it('needs a key (401) with any read scope; HEAD answers like GET without a body', async () => {
    await t.get('/v1/catalog/stores').expect(401);
    const head = await t.head('/v1/catalog/stores', KEYS.tenantA).expect(200);
    expect(head.text ?? '').toBe('');
    expect(head.headers.link).toBe('</v1/catalog/stores>; rel="first"');
  });
});

import { KEYS } from '../../../test/support/dataset.js';
import type { TestApp } from '../../../test/support/test-app.js';
import type { paths } from '../src/generated/openapi.js';
import {
  ApiError,
  createClient,
  isApiError,
  type Category,
  type Client,
  type Page,
  type ParameterError,
  type Product,
  type ProductPage,
  type ProductRemoval,
  type Promotion,
  type StockRemoval,
  type StockRow,
  type Store,
} from '../src/index.js';
import { assertType, type Equal, listeningTestApp, raw } from './support/service.js';

/**
 * Every operation of openapi.json through the client, against the real service: each method's result
 * has exactly the type openapi.json gives the operation's 200 (checked at compile time: tsc runs on
 * this file in package.e2e-spec.ts) and exactly the JSON the service sends (checked here). Errors are
 * ApiErrors whose details are typed by their code.
 */
type Json<P extends keyof paths> = paths[P]['get']['responses'][200]['content']['application/json'];

let t: TestApp;
let base: string;
let client: Client;
beforeAll(async () => {
  ({ t, base } = await listeningTestApp());
  client = createClient({ baseUrl: base, apiKey: KEYS.tenantA });
});
afterAll(async () => t.close());

describe('every operation, typed end to end', () => {
  it('getProduct: products.get', async () => {
    const product = await client.products.get('prd_a1_cola');
    assertType<Equal<typeof product, Json<'/v1/catalog/products/{id}'>>>();
    assertType<Equal<typeof product.sellingPriceGross, string>>();
    expect(product).toEqual((await raw(base, '/v1/catalog/products/prd_a1_cola', KEYS.tenantA)).body);
    expect(product).toMatchObject({ id: 'prd_a1_cola', storeId: 'sto_a1' });
  });

  it('listProducts: products.listPage (one page, with the walk headers)', async () => {
    const page = await client.products.listPage({ storeId: 'sto_a1', pageSize: 3, activeOnly: false });
    assertType<Equal<typeof page, Page<Json<'/v1/catalog/products'>>>>();
    assertType<Equal<(typeof page.rows)[number], Product>>();
    assertType<Equal<typeof page.nextCursor, string | null>>();
    const expected = await raw(base, '/v1/catalog/products?storeId=sto_a1&pageSize=3&activeOnly=false', KEYS.tenantA);
    const { nextCursor, syncPosition, ...body } = page;
    expect(body).toEqual(expected.body);
    expect(expected.headers.get('link')).toContain(`cursor=${nextCursor}>; rel="next"`);
    expect(syncPosition).toBe(expected.headers.get('sync-position'));
    expect(syncPosition).toMatch(/^sp_[\w-]{59}$/);
    const second = await client.products.listPage({
      storeId: 'sto_a1',
      pageSize: 3,
      activeOnly: false,
      cursor: nextCursor!,
    });
    expect(second.page).toBe(2);
    expect(second.rows[0].id > page.rows[2].id).toBe(true);
  });

  it('listProducts: products.list (every row, following Link next)', async () => {
    const products: Product[] = [];
    for await (const product of client.products.list({ pageSize: 2, q: 'cola' })) {
      assertType<Equal<typeof product, Json<'/v1/catalog/products/{id}'>>>();
      products.push(product);
    }
    const pages: Page<ProductPage>[] = [];
    for await (const page of client.products.list({ pageSize: 2, q: 'cola' }).pages()) pages.push(page);
    const expected = await raw(base, '/v1/catalog/products?pageSize=100&q=cola', KEYS.tenantA);
    expect(products).toEqual(expected.body.rows);
    expect(products.length).toBeGreaterThan(2);
    expect(pages.flatMap((page) => page.rows)).toEqual(expected.body.rows);
    expect(pages.at(-1)?.nextCursor).toBeNull();
  });

  it('listStock: stock.listPage and stock.list', async () => {
    const page = await client.stock.listPage({ lowStockOnly: true, activeOnly: false });
    assertType<Equal<typeof page, Page<Json<'/v1/inventory/stock'>>>>();
    expect(page.rows.map(({ availability }) => availability)).toEqual(page.rows.map(() => 'low_stock'));
    expect(page.rows.length).toBeGreaterThan(0);
    const rows: StockRow[] = [];
    for await (const row of client.stock.list({ storeId: 'sto_a1', pageSize: 3 })) {
      assertType<Equal<typeof row, Json<'/v1/inventory/stock'>['rows'][number]>>();
      rows.push(row);
    }
    expect(rows).toEqual((await raw(base, '/v1/inventory/stock?storeId=sto_a1&pageSize=100', KEYS.tenantA)).body.rows);
  });

  it('listStores: stores.listPage and stores.list', async () => {
    const page = await client.stores.listPage({ pageSize: 1 });
    assertType<Equal<typeof page, Page<Json<'/v1/catalog/stores'>>>>();
    assertType<Equal<(typeof page.rows)[number], Store>>();
    const { nextCursor, syncPosition, ...body } = page;
    expect(body).toEqual((await raw(base, '/v1/catalog/stores?pageSize=1', KEYS.tenantA)).body);
    expect(nextCursor).not.toBeNull();
    expect(syncPosition).toBeNull();
    const stores: Store[] = [];
    for await (const store of client.stores.list({ pageSize: 1 })) stores.push(store);
    expect(stores).toEqual([
      { id: 'sto_a1', name: 'A One' },
      { id: 'sto_a2', name: 'A Two' },
    ]);
  });

  it('listProductRemovals, listStockRemovals: products.removals and stock.removals (following Link next)', async () => {
    const since = (await client.products.listPage({ activeOnly: false, pageSize: 1 })).syncPosition!;
    const stockSince = (await client.stock.listPage({ activeOnly: false, pageSize: 1, storeId: 'sto_a1' }))
      .syncPosition!;
    await t.db.query(`DELETE FROM products WHERE id IN ('prd_a1_creme', 'prd_a1_slash')`);
    const removed: ProductRemoval[] = [];
    for await (const removal of client.products.removals({ changedSince: since, pageSize: 1 })) {
      assertType<Equal<typeof removal, Json<'/v1/catalog/product-removals'>['rows'][number]>>();
      removed.push(removal);
    }
    expect(removed).toEqual(
      (await raw(base, `/v1/catalog/product-removals?changedSince=${since}`, KEYS.tenantA)).body.rows,
    );
    expect(removed.map((r) => [r.id, r.storeId])).toEqual([
      ['prd_a1_creme', 'sto_a1'],
      ['prd_a1_slash', 'sto_a1'],
    ]);
    const stock: StockRemoval[] = [];
    for await (const page of client.stock.removals({ changedSince: stockSince, storeId: 'sto_a1' }).pages()) {
      assertType<Equal<(typeof page.rows)[number], StockRemoval>>();
      expect(page.syncPosition).toBe(stockSince); // a removals walk repeats the position it was given
      stock.push(...page.rows);
    }
    expect(stock.map((r) => r.productId)).toEqual(['prd_a1_creme', 'prd_a1_slash']);
  });

  it('listCategories: categories.list', async () => {
    const categories = await client.categories.list({ storeId: 'sto_a1', sortBy: 'name' });
    assertType<Equal<typeof categories, Json<'/v1/catalog/categories'>>>();
    assertType<Equal<(typeof categories)[number], Category>>();
    expect(categories).toEqual(
      (await raw(base, '/v1/catalog/categories?storeId=sto_a1&sortBy=name', KEYS.tenantA)).body,
    );
    expect(categories.map((c) => c.id)).toContain('cat_a1_drinks');
  });

  it('listPromotions: promotions.list', async () => {
    const promotions = await client.promotions.list({ storeId: 'sto_a1' });
    assertType<Equal<typeof promotions, Json<'/v1/catalog/promotions'>>>();
    assertType<Equal<(typeof promotions)[number], Promotion>>();
    expect(promotions).toEqual((await raw(base, '/v1/catalog/promotions?storeId=sto_a1', KEYS.tenantA)).body);
    expect(promotions.map((p) => p.id)).toEqual(['pro_a1_meal']);
  });
});

describe('the base URL: the server root, as npm start prints it', () => {
  it('works with or without a trailing slash', async () => {
    const slashed = createClient({ baseUrl: `${base}/`, apiKey: KEYS.tenantA });
    expect((await slashed.products.get('prd_a1_cola')).id).toBe('prd_a1_cola');
  });

  it.each(['/v1', '/v1/', '/V1'])('a base ending in %s is refused, naming the mistake and the root to use', (tail) => {
    // Before: accepted, then every request went to /v1/v1/… and got a bare 404.
    expect(() => createClient({ baseUrl: `${base}${tail}`, apiKey: KEYS.tenantA })).toThrow(
      `baseUrl must be the server's root, without /v1 (the client adds /v1 to every path): got "${base}${tail}", use "${base}"`,
    );
  });

  it('a root under a path prefix is kept (a proxy that mounts the service under /catalog)', () => {
    expect(() => createClient({ baseUrl: `${base}/catalog`, apiKey: KEYS.tenantA })).not.toThrow();
  });
});

describe('errors', () => {
  const caught = async (call: () => Promise<unknown>): Promise<unknown> =>
    call().then(
      () => {
        throw new Error('the call succeeded');
      },
      (error: unknown) => error,
    );

  it('validation_failed: an ApiError whose details list every failing parameter', async () => {
    const error = await caught(() =>
      client.products.listPage({ pageSize: 500, storeId: 'bad id!' }, { requestId: 'my-req-1' }),
    );
    expect(error).toBeInstanceOf(ApiError);
    if (!isApiError(error, 'validation_failed')) throw error;
    assertType<Equal<typeof error.details.errors, ParameterError[]>>();
    expect(error.status).toBe(400);
    expect(error.details.errors.map((e) => e.name).sort()).toEqual(['pageSize', 'storeId']);
    expect(error.requestId).toBe('my-req-1');
    expect(error.attempts).toBe(1);
  });

  it('scope_denied: details.requiredScopes', async () => {
    const categoriesOnly = createClient({ baseUrl: base, apiKey: KEYS.tenantACategoriesOnly });
    const error = await caught(() => categoriesOnly.products.get('prd_a1_cola'));
    if (!isApiError(error, 'scope_denied')) throw error;
    assertType<Equal<typeof error.details.requiredScopes, string[]>>();
    expect(error).toMatchObject({ status: 403, details: { requiredScopes: ['catalog.products.read'] } });
    expect(error.requestId).toMatch(/^req_/);
  });

  it.each([
    ['not_found', 404, () => client.products.get('prd_does_not_exist')],
    ['unauthorized', 401, () => createClient({ baseUrl: base, apiKey: KEYS.unknown }).categories.list()],
  ] as const)('%s: status %i, empty details, never retried', async (code, status, call) => {
    const error = await caught(call);
    if (!isApiError(error, code)) throw error;
    assertType<Equal<typeof error.details, Record<string, never>>>();
    expect(error).toMatchObject({ status, code, details: {}, attempts: 1 });
    expect(error.message).not.toBe('');
  });

  it('isApiError tells codes apart', async () => {
    const error = await caught(() => client.products.get('prd_does_not_exist'));
    expect(isApiError(error)).toBe(true);
    expect(isApiError(error, 'not_found', 'unauthorized')).toBe(true);
    expect(isApiError(error, 'validation_failed')).toBe(false);
    expect(isApiError(new Error('x'))).toBe(false);
  });
});

import type { AddressInfo } from 'node:net';
import { KEYS, testDataset } from './support/dataset.js';
import { RawConnection } from './support/raw-http.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * Cursor pagination: following `Link: rel="next"` walks exactly the rows of the page-number walk,
 * for every list that matters, for both routes, for a key limited to stores, at page sizes 1 and 100;
 * and every malformed, altered or misused cursor is a 400 naming `cursor`.
 */
let t: TestApp;
beforeAll(async () => {
  // Walks at page size 1 make hundreds of requests: a budget that does not stop them.
  t = await createTestApp({ dataset: testDataset(), env: { RATE_LIMIT_PER_MINUTE: '1000000' } });
});
afterAll(async () => t.close());

type Row = Record<string, unknown>;
type Page = { rows: Record<string, unknown>[]; page: number; pageSize: number; total: number; totalPages: number };

const link = (header: string | undefined, rel: string): string | undefined =>
  new RegExp(`<([^>]+)>; rel="${rel}"`).exec(header ?? '')?.[1];

const idOf = (row: Record<string, unknown>): string => String(row.id ?? row.productId);

async function pageWalk(path: string, key: string): Promise<{ rows: Record<string, unknown>[]; total: number }> {
  const rows: Record<string, unknown>[] = [];
  for (let page = 1; ; page++) {
    const body = (await t.get(`${path}&page=${page}`, key).expect(200)).body as Page;
    rows.push(...body.rows);
    if (page >= body.totalPages) return { rows, total: body.total };
  }
}

async function cursorWalk(path: string, key: string): Promise<{ rows: Record<string, unknown>[]; pages: Page[] }> {
  const rows: Record<string, unknown>[] = [];
  const pages: Page[] = [];
  let next: string | undefined = path;
  while (next !== undefined) {
    const res = await t.get(next, key).expect(200);
    expect(link(res.headers.link, 'first')).toBe(path);
    pages.push(res.body as Page);
    rows.push(...(res.body as Page).rows);
    next = link(res.headers.link, 'next');
    if (pages.length > 500) throw new Error('the walk does not end');
  }
  return { rows, pages };
}

const LISTS = [
  '/v1/catalog/products?pageSize=PS',
  '/v1/catalog/products?pageSize=PS&activeOnly=false',
  '/v1/catalog/products?pageSize=PS&storeId=sto_a2',
  '/v1/catalog/products?pageSize=PS&q=cola',
  '/v1/catalog/products?pageSize=PS&categoryId=cat_a1_soft&activeOnly=false',
  '/v1/catalog/products?pageSize=PS&updatedSince=2026-10-01T00%3A00%3A00Z',
  '/v1/inventory/stock?pageSize=PS',
  '/v1/inventory/stock?pageSize=PS&activeOnly=false&storeId=sto_a1',
  '/v1/inventory/stock?pageSize=PS&lowStockOnly=true&activeOnly=false',
  '/v1/inventory/stock?pageSize=PS&lowStockOnly=true&sku=COLA-330',
  '/v1/inventory/stock?pageSize=PS&updatedSince=2026-10-02T00%3A00%3A00Z&activeOnly=false',
];
const KEYS_USED = { 'all stores': KEYS.tenantA, 'one store': KEYS.tenantAStore1 };

describe.each(Object.entries(KEYS_USED))('with a key of %s', (_name, key) => {
  it.each(LISTS.flatMap((list) => [list.replace('PS', '1'), list.replace('PS', '100')]))(
    '%s: the cursor walk returns exactly the page-number walk',
    async (path) => {
      if (path.includes('storeId=sto_a2') && key === KEYS.tenantAStore1) return; // outside this key: a 404
      if (path.includes('pageSize=1&') && /pageSize=1&(activeOnly=false)?$/.test(path)) return; // 130 requests each: covered by others
      const byPage = await pageWalk(path, key);
      const byCursor = await cursorWalk(path, key);
      expect(byCursor.rows.map(idOf)).toEqual(byPage.rows.map(idOf));
      expect(byCursor.rows).toEqual(byPage.rows);
      byCursor.pages.forEach((page, i) => {
        expect(page.page).toBe(i + 1);
        expect(page.total).toBe(byPage.total);
      });
    },
  );
});

describe('the Link header', () => {
  it('repeats the request, carries first, and next only while a next page exists', async () => {
    const path = '/v1/catalog/products?activeOnly=false&pageSize=100';
    const first = await t.get(path, KEYS.tenantA).expect(200);
    expect(first.headers.link).toMatch(
      /^<\/v1\/catalog\/products\?activeOnly=false&pageSize=100&cursor=[\w-]+\.[\w-]+>; rel="next", <\/v1\/catalog\/products\?activeOnly=false&pageSize=100>; rel="first"$/,
    );
    const second = await t.get(link(first.headers.link, 'next')!, KEYS.tenantA).expect(200);
    expect(second.body.page).toBe(2);
    expect(link(second.headers.link, 'next')).toBeUndefined();
    expect(link(second.headers.link, 'first')).toBe(path);
  });

  it('starts a cursor walk from a page number, and a page past the end has no next', async () => {
    const third = await t.get('/v1/catalog/products?pageSize=10&page=3', KEYS.tenantA).expect(200);
    const fourth = await t.get(link(third.headers.link, 'next')!, KEYS.tenantA).expect(200);
    const byNumber = await t.get('/v1/catalog/products?pageSize=10&page=4', KEYS.tenantA).expect(200);
    expect(fourth.body).toEqual(byNumber.body);
    expect(link(third.headers.link, 'first')).toBe('/v1/catalog/products?pageSize=10');
    const past = await t.get('/v1/catalog/products?pageSize=10&page=99', KEYS.tenantA).expect(200);
    expect(link(past.headers.link, 'next')).toBeUndefined();
  });
});

describe('the Link header under a request target or Host of an attacker', () => {
  let connection: RawConnection;
  beforeAll(async () => {
    await t.app.listen(0, '127.0.0.1');
    connection = await RawConnection.open(`http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`);
  });
  afterAll(() => connection?.destroy());

  const auth = { Authorization: `Bearer ${KEYS.tenantA}` };
  const relative = (header: string): string[] => [...header.matchAll(/<([^>]*)>/g)].map((m) => m[1]);

  it('is relative for an absolute-form target (GET https://evil.example:8443/v1/… HTTP/1.1)', async () => {
    const res = await connection.get('https://evil.example:8443/v1/catalog/products?pageSize=2', auth);
    expect(res.status).toBe(200);
    expect(res.headers.link).not.toContain('evil.example');
    const urls = relative(res.headers.link);
    expect(urls).toEqual([
      expect.stringMatching(/^\/v1\/catalog\/products\?pageSize=2&cursor=/),
      '/v1/catalog/products?pageSize=2',
    ]);
  });

  it('is relative whatever Host says, and never protocol-relative', async () => {
    const res = await connection.get('/v1/inventory/stock?pageSize=2', { ...auth, Host: 'evil.example:8443' });
    expect(res.status).toBe(200);
    for (const url of relative(res.headers.link)) expect(url).toMatch(/^\/v1\/inventory\/stock\?pageSize=2/);
  });
});

describe('a cursor that is not for this request', () => {
  const PATH = '/v1/catalog/products?pageSize=5&activeOnly=false';
  let cursor: string;
  beforeAll(async () => {
    cursor = new URL(link((await t.get(PATH, KEYS.tenantA)).headers.link, 'next')!, 'http://x').searchParams.get(
      'cursor',
    )!;
  });

  const expectCursorError = async (path: string, key: string = KEYS.tenantA): Promise<string> => {
    const res = await t.get(path, key).expect(400);
    expect(res.body.error.code).toBe('validation_failed');
    expect(res.body.error.details.errors.map((e: { name: string }) => e.name)).toContain('cursor');
    return res.body.error.details.errors.find((e: { name: string }) => e.name === 'cursor').message;
  };

  it.each([
    ['malformed', (c: string) => `${PATH}&cursor=${encodeURIComponent(c.replace('.', '!'))}`],
    ['not base64', () => `${PATH}&cursor=${encodeURIComponent('%%%.' + 'A'.repeat(22))}`],
    ['cut short', (c: string) => `${PATH}&cursor=${c.slice(0, -3)}`],
    ['altered', (c: string) => `${PATH}&cursor=${(c[0] === 'A' ? 'B' : 'A') + c.slice(1)}`],
    ['signed for another payload', (c: string) => `${PATH}&cursor=${c.split('.')[0]}.${'A'.repeat(22)}`],
    ['used with other filters', (c: string) => `${PATH}&sku=COLA-330&cursor=${c}`],
    ['used with another page size', (c: string) => `/v1/catalog/products?pageSize=6&activeOnly=false&cursor=${c}`],
    ['used with page', (c: string) => `${PATH}&page=2&cursor=${c}`],
    ['used on the other route', (c: string) => `/v1/inventory/stock?pageSize=5&activeOnly=false&cursor=${c}`],
  ])('%s: a 400 naming cursor', async (_name, make) => {
    await expectCursorError(make(cursor));
  });

  it("another tenant's cursor is a 400, never its rows", async () => {
    const message = await expectCursorError(`${PATH}&cursor=${cursor}`, KEYS.tenantB);
    expect(message).toMatch(/another API client|other parameters/);
  });

  it('an altered cursor with a store outside the key is the 400 of the cursor, not the 404 of the store', async () => {
    await expectCursorError(`${PATH}&storeId=sto_b1&cursor=${cursor.slice(0, -2)}AA`);
  });

  it("another client's cursor of the same tenant is a 400", async () => {
    await expectCursorError(
      `/v1/catalog/products?pageSize=5&activeOnly=false&cursor=${cursor}`,
      KEYS.tenantAProductsOnly,
    );
  });
});

describe('sync walks (changedSince and Sync-Position)', () => {
  const SYNC = '/v1/catalog/products?activeOnly=false&pageSize=50';

  it('hands out one position on every page of a sync walk, and none on other requests', async () => {
    const positions = new Set<string>();
    let next: string | undefined = SYNC;
    while (next) {
      const res = await t.get(next, KEYS.tenantA).expect(200);
      positions.add(res.headers['sync-position']);
      next = link(res.headers.link, 'next');
    }
    expect(positions.size).toBe(1);
    expect([...positions][0]).toMatch(/^sp_[A-Za-z0-9_-]{59}$/);
    for (const path of [
      `${SYNC}&page=1`,
      '/v1/catalog/products?pageSize=50',
      `${SYNC}&sku=COLA-330`,
      '/v1/inventory/stock?activeOnly=false&lowStockOnly=true',
    ]) {
      expect((await t.get(path, KEYS.tenantA).expect(200)).headers['sync-position']).toBeUndefined();
    }
    expect(
      (await t.get('/v1/inventory/stock?activeOnly=false', KEYS.tenantA).expect(200)).headers['sync-position'],
    ).toMatch(/^sp_/);
    expect((await t.get(`${SYNC}&storeId=sto_a1`, KEYS.tenantA).expect(200)).headers['sync-position']).toMatch(/^sp_/);
  });

  it('returns exactly the rows changed since a position', async () => {
    const position = (await t.get(SYNC, KEYS.tenantA).expect(200)).headers['sync-position'];
    const STOCK = '/v1/inventory/stock?activeOnly=false';
    const stockPosition = (await t.get(STOCK, KEYS.tenantA).expect(200)).headers['sync-position'];
    const none = await t.get(`${SYNC}&changedSince=${position}`, KEYS.tenantA).expect(200);
    expect(none.body).toMatchObject({ rows: [], total: 0 });
    await t.db.query(
      `UPDATE products SET selling_price_gross = 9.99, updated_at = '2000-01-01' WHERE id = 'prd_a2_f007'`,
    );
    await t.db.query(`UPDATE stock_levels SET quantity = 77 WHERE product_id = 'prd_a1_diet'`);
    await t.db.query(`UPDATE products SET is_active = false WHERE id = 'prd_a1_beer'`);
    const products = await t.get(`${SYNC}&changedSince=${position}`, KEYS.tenantA).expect(200);
    expect(products.body.rows.map(idOf)).toEqual(['prd_a1_beer', 'prd_a2_f007']);
    expect(products.body.rows[1]).toMatchObject({ sellingPriceGross: '9.99', updatedAt: '2000-01-01T00:00:00.000Z' });
    const stock = await t.get(`${STOCK}&changedSince=${stockPosition}`, KEYS.tenantA).expect(200);
    expect(stock.body.rows.map(idOf)).toEqual(['prd_a1_beer', 'prd_a1_diet', 'prd_a2_f007']);
    expect(stock.body.total).toBe(3);
  });

  it.each([
    ['without activeOnly=false', '/v1/catalog/products?changedSince=sp_1', /activeOnly=false/],
    ['with activeOnly=true', '/v1/catalog/products?activeOnly=true&changedSince=sp_1', /activeOnly=false/],
    ['with a filter', '/v1/catalog/products?activeOnly=false&sku=X&changedSince=sp_1', /sku/],
    ['with page', '/v1/catalog/products?activeOnly=false&page=2&changedSince=sp_1', /page/],
    ['with lowStockOnly', '/v1/inventory/stock?activeOnly=false&lowStockOnly=true&changedSince=sp_1', /lowStockOnly/],
    ['malformed', '/v1/catalog/products?activeOnly=false&changedSince=2026-01-01', /sync position/],
  ])('refuses changedSince %s with a 400 naming changedSince', async (_name, path, message) => {
    const res = await t.get(path, KEYS.tenantA).expect(400);
    const error = res.body.error.details.errors.find((e: { name: string }) => e.name === 'changedSince');
    expect(error.message).toMatch(message);
  });

  it('delivers a change that the updatedSince recipe (the largest updatedAt seen) misses', async () => {
    // During a walk, a row of a page already fetched changes, then a row of a later page: the later
    // change's updatedAt becomes the next updatedSince and the first change is never delivered.
    const walk = async (first: string, between: () => Promise<void>): Promise<{ rows: Row[]; position?: string }> => {
      const rows: Row[] = [];
      let url: string | undefined = first;
      let position: string | undefined;
      for (let page = 1; url; page++) {
        const res = await t.get(url, KEYS.tenantA).expect(200);
        rows.push(...(res.body as Page).rows);
        position = res.headers['sync-position'] ?? position;
        url = link(res.headers.link, 'next');
        if (page === 1) await between();
      }
      return { rows, position };
    };
    const change = async (): Promise<void> => {
      await t.db.query(
        `UPDATE products SET name = 'First change', updated_at = now() - interval '1 second' WHERE id = 'prd_a1_bananas'`,
      );
      await t.db.query(`UPDATE products SET name = 'Later change', updated_at = now() WHERE id = 'prd_a2_f110'`);
    };
    const old = await walk('/v1/catalog/products?pageSize=50', change);
    const since = old.rows
      .map((r) => String(r.updatedAt))
      .sort()
      .at(-1)!;
    const oldNext = await walk(
      `/v1/catalog/products?pageSize=50&updatedSince=${encodeURIComponent(since)}`,
      async () => undefined,
    );
    expect(oldNext.rows.map(idOf)).not.toContain('prd_a1_bananas');
    expect(old.rows.find((r) => r.id === 'prd_a1_bananas')!.name).not.toBe('First change');

    const first = await walk(SYNC, change);
    const next = await walk(`${SYNC}&changedSince=${first.position}`, async () => undefined);
    expect(next.rows.find((r) => r.id === 'prd_a1_bananas')).toMatchObject({ name: 'First change' });
    expect(next.rows.find((r) => r.id === 'prd_a2_f110')).toMatchObject({ name: 'Later change' });
  });

  it('allows lowStockOnly=false and storeId with changedSince', async () => {
    const walk = '/v1/inventory/stock?activeOnly=false&lowStockOnly=false&storeId=sto_a1';
    const position = (await t.get(walk, KEYS.tenantA).expect(200)).headers['sync-position'];
    await t.get(`${walk}&changedSince=${position}`, KEYS.tenantA).expect(200);
  });
});

import { KEYS } from '../../../test/support/dataset.js';
import type { TestApp } from '../../../test/support/test-app.js';
import { createClient, type Page, type PageBody, type ProductListQuery, type StockListQuery } from '../src/index.js';
import { listeningTestApp, raw } from './support/service.js';

/**
 * Auto-pagination: `for await (… of client.products.list(query))` and `.pages()` (following the Link
 * header's next cursors) return exactly the rows of a page-number walk (page=1, 2, … without the
 * client), for the lists of test/cursors.e2e-spec.ts, both routes, a key of every store and a key of
 * one store, at page sizes 3 and 100.
 */
let t: TestApp;
let base: string;
beforeAll(async () => {
  ({ t, base } = await listeningTestApp({ RATE_LIMIT_PER_MINUTE: '1000000' }));
});
afterAll(async () => t.close());

type Row = Record<string, unknown>;

/** Every row of the list by page numbers, without the client. */
async function pageNumberWalk(path: string, query: Record<string, unknown>, key: string): Promise<Row[]> {
  const rows: Row[] = [];
  const params = new URLSearchParams(
    Object.entries(query).map(([name, value]): [string, string] => [name, String(value)]),
  );
  for (let page = 1; ; page++) {
    const { status, body } = await raw(base, `${path}?${params}&page=${page}`, key);
    expect(status).toBe(200);
    rows.push(...(body.rows as Row[]));
    if (page >= body.totalPages) return rows;
  }
}

const PRODUCT_LISTS: ProductListQuery[] = [
  {},
  { activeOnly: false },
  { storeId: 'sto_a1' },
  { q: 'cola' },
  { categoryId: 'cat_a1_soft', activeOnly: false },
  { updatedSince: '2026-10-01T00:00:00Z' },
];
const STOCK_LISTS: StockListQuery[] = [
  {},
  { activeOnly: false, storeId: 'sto_a1' },
  { lowStockOnly: true, activeOnly: false },
  { updatedSince: '2026-10-02T00:00:00Z', activeOnly: false },
];
const KEYS_USED = { 'every store': KEYS.tenantA, 'one store': KEYS.tenantAStore1 };
const CASES = Object.entries(KEYS_USED).flatMap(([keyName, key]) =>
  [3, 100].flatMap((pageSize) => [
    ...PRODUCT_LISTS.map((query) => ['products', keyName, { ...query, pageSize }, key] as const),
    ...STOCK_LISTS.map((query) => ['stock', keyName, { ...query, pageSize }, key] as const),
  ]),
);

it.each(CASES)('%s, key of %s, %j: the walk returns exactly the page-number walk', async (route, _name, query, key) => {
  const client = createClient({ baseUrl: base, apiKey: key });
  const listing = route === 'products' ? client.products.list(query) : client.stock.list(query);
  const expected = await pageNumberWalk(
    route === 'products' ? '/v1/catalog/products' : '/v1/inventory/stock',
    query,
    key,
  );
  expect(expected.length).toBeGreaterThan(0);
  const rows: Row[] = [];
  for await (const row of listing) rows.push(row);
  expect(rows).toEqual(expected);
  const pages: Page<PageBody>[] = [];
  for await (const page of listing.pages()) pages.push(page);
  expect(pages.flatMap((page): Row[] => page.rows)).toEqual(expected);
  expect(pages.map((page) => page.page)).toEqual(pages.map((_page, i) => i + 1));
  expect(pages.length).toBe(pages[0].totalPages);
  expect(pages.map((page) => page.nextCursor === null)).toEqual(pages.map((_page, i) => i === pages.length - 1));
});

it('a walk started at a page number goes on from there with cursors', async () => {
  const client = createClient({ baseUrl: base, apiKey: KEYS.tenantA });
  const rows: Row[] = [];
  for await (const row of client.products.list({ pageSize: 4, page: 3 })) rows.push(row);
  expect(rows).toEqual((await pageNumberWalk('/v1/catalog/products', { pageSize: 4 }, KEYS.tenantA)).slice(8));
});

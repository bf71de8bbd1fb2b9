import '../src/app.module.js';
import type { JsonColumn } from '../src/lists/json-columns.js';
import { definedLists } from '../src/lists/list-definition.js';
import { KEYS, testDataset } from './support/dataset.js';
import { seededRandom } from './support/sync-harness.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * Rows are written as JSON by PostgreSQL (src/lists/json-columns.ts) and sent as they are: the bytes must be those
 * JSON.stringify writes for the same value, with the hardest strings there are (quotes, backslashes,
 * every control character, DEL, U+2028, emoji, markup).
 */
let t: TestApp;
const WEIRD = `W "q" \\ / ${Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)).join('')} \u007f \u2028\u2029 € 😀 </script>`;
beforeAll(async () => {
  t = await createTestApp({ dataset: testDataset() });
  await t.db.query(`UPDATE products SET name = $1, brand = $1, size = $1, barcode = $1 WHERE id = 'prd_a1_cola'`, [
    WEIRD.replace('\u0000', ''),
  ]);
  await t.db.query(`UPDATE categories SET name = $1, description = $1, code = $1 WHERE id = 'cat_a1_soft'`, [
    WEIRD.replace('\u0000', ''),
  ]);
  await t.db.query(`UPDATE vat_rates SET name = $1, code = $1 WHERE id = 'vat_a_std'`, [WEIRD.replace('\u0000', '')]);
});
afterAll(async () => t.close());

it.each([
  '/v1/catalog/products?pageSize=100&activeOnly=false',
  '/v1/catalog/products/prd_a1_cola',
  '/v1/catalog/products?q=330',
  '/v1/inventory/stock?pageSize=100&activeOnly=false',
  '/v1/inventory/stock?lowStockOnly=true',
  '/v1/catalog/categories?activeOnly=false',
  '/v1/catalog/promotions?activeOnly=false',
])('%s is byte for byte what JSON.stringify writes', async (path) => {
  const res = await t.get(path, KEYS.tenantA).expect(200);
  const text = res.text;
  expect(text).toBe(JSON.stringify(JSON.parse(text)));
  if (path.includes('products') || path.includes('categories'))
    expect(text).toContain(JSON.stringify(WEIRD.replace('\u0000', '')));
});

/** Every column of a row, nested objects' too, with its key path. */
const columnsOf = (columns: Readonly<Record<string, JsonColumn<unknown>>>, at = ''): [string, JsonColumn<unknown>][] =>
  Object.entries(columns).flatMap(([key, column]) => [
    [`${at}${key}`, column] as [string, JsonColumn<unknown>],
    ...(column.columns === undefined ? [] : columnsOf(column.columns, `${at}${key}.`)),
  ]);

/**
 * The writers that quote a value without escaping it hold only for values that never need escaping:
 * PostgreSQL says the type of each such column's expression (over one row of NULLs of the list's
 * tables), so a text column declared as an id, a decimal or a boolean fails here, not in a response.
 */
it('writes unescaped only what cannot need escaping: ids of the opaque_id domain, integers, numerics, booleans, timestamps', async () => {
  const expected: Partial<Record<JsonColumn<unknown>['kind'], string[]>> = {
    id: ['opaque_id'],
    integer: ['smallint', 'integer', 'bigint'],
    decimal: ['numeric'],
    bool: ['boolean'],
    instant: ['timestamp with time zone'],
  };
  const wrong: string[] = [];
  let checked = 0;
  for (const d of definedLists()) {
    const tables = [d.from, ...d.row.joins].map(({ table, alias }) => `LEFT JOIN ${table} ${alias} ON false`).join(' ');
    for (const [key, column] of columnsOf(d.row.columns as Record<string, JsonColumn<unknown>>)) {
      const types = expected[column.kind];
      if (types === undefined) continue;
      const [{ type }] = (await t.db.query(
        `SELECT pg_typeof(${column.sql})::text AS type FROM (SELECT 1) one ${tables}`,
      )) as {
        type: string;
      }[];
      checked++;
      if (!types.includes(type)) wrong.push(`${d.name}.${key}: ${column.kind}(${column.sql}) is ${type}`);
    }
  }
  expect(wrong).toEqual([]);
  expect(checked).toBeGreaterThan(20);
});

/**
 * The invariant, with generated values: whatever text a row holds (any code point PostgreSQL stores:
 * not NUL, no lone surrogate), the row's bytes are JSON.stringify's, and its strings read back as
 * stored. The text columns of the product and its nested VAT rate, the stock row and the category row,
 * each round.
 */
it('writes generated text as JSON.stringify does (BYTES_SEED)', async () => {
  const seed = Number(process.env.BYTES_SEED ?? Date.now() % 100_000);
  console.log(`bytes: BYTES_SEED=${seed}`);
  const random = seededRandom(seed);
  // Biased towards what JSON escapes: controls, quotes, backslashes, DEL, U+2028/9, astral.
  const ranges: [number, number][] = [
    [1, 0x1f],
    [0x20, 0x7e],
    [0x22, 0x22],
    [0x5c, 0x5c],
    [0x7f, 0xa0],
    [0x2028, 0x2029],
    [0xe000, 0xfffd],
    [0x1f600, 0x1f64f],
  ];
  const generated = (): string =>
    Array.from({ length: 1 + Math.floor(random() * 12) }, () => {
      const [from, to] = ranges[Math.floor(random() * ranges.length)];
      return String.fromCodePoint(from + Math.floor(random() * (to - from + 1)));
    }).join('');
  for (let round = 0; round < 25; round++) {
    const [name, brand, code] = [generated(), generated(), generated()];
    await t.db.query(`UPDATE products SET name = $1, brand = $2 WHERE id = 'prd_a1_cola'`, [name, brand]);
    await t.db.query(`UPDATE vat_rates SET code = $1 WHERE id = 'vat_a_std'`, [code]);
    for (const path of ['/v1/catalog/products/prd_a1_cola', '/v1/inventory/stock?productId=prd_a1_cola']) {
      const text = (await t.get(path, KEYS.tenantA).expect(200)).text;
      expect([seed, round, path, text]).toEqual([seed, round, path, JSON.stringify(JSON.parse(text))]);
      expect([seed, round, path, text.includes(JSON.stringify(name))]).toEqual([seed, round, path, true]);
    }
    const product = JSON.parse((await t.get('/v1/catalog/products/prd_a1_cola', KEYS.tenantA)).text) as {
      brand: string;
      vatRate: { code: string } | null;
    };
    expect([seed, round, product.brand, product.vatRate?.code]).toEqual([seed, round, brand, code]);
    // The category row, stored whole.
    await t.db.query(`UPDATE categories SET name = $1, description = $2 WHERE id = 'cat_a1_drinks'`, [brand, name]);
    const text = (await t.get('/v1/catalog/categories?storeId=sto_a1&activeOnly=false', KEYS.tenantA).expect(200)).text;
    expect([seed, round, text]).toEqual([seed, round, JSON.stringify(JSON.parse(text))]);
    const drinks = (JSON.parse(text) as { id: string; name: string; description: string }[]).find(
      (c) => c.id === 'cat_a1_drinks',
    );
    expect([seed, round, drinks?.name, drinks?.description]).toEqual([seed, round, brand, name]);
  }
});

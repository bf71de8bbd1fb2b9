import { KEYS, testDataset } from './support/dataset.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * Rows are written as JSON by PostgreSQL (row_to_json) and sent as they are: the bytes must be those
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

import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { AddressInfo } from 'node:net';
import { testTempDir } from '../../../test/support/temp-dir.js';
import { createTestApp, type TestApp } from '../../../test/support/test-app.js';

/**
 * The example program of the package README (examples/sync-to-json.mjs) against the service with
 * npm start's demo data and the demo ERP key it uses by default: a first run copies everything, a
 * second finds nothing changed, a third applies a change, a fourth deletes a deleted product, a refused
 * position falls back to a full walk, and a full run removes what the copy should not hold.
 */
const run = promisify(execFile);
const DEMO_KEY = 'ck_test_DemoErpSyncKey0000000000000000000001';
let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp({ dataset: JSON.parse(readFileSync('fixtures/demo.json', 'utf8')) });
  await t.app.listen(0, '127.0.0.1');
  base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
});
afterAll(async () => t.close());

it('keeps a JSON copy of products and stock in sync, run after run', async () => {
  const file = join(testTempDir('client-example'), 'copy.json');
  const example = async (...args: string[]): Promise<string> =>
    (
      await run(process.execPath, ['clients/typescript/examples/sync-to-json.mjs', file, ...args], {
        env: { ...process.env, CATALOG_BASE_URL: base },
      })
    ).stdout;
  const total = async (path: string): Promise<number> =>
    (
      (await (await fetch(`${base}${path}`, { headers: { Authorization: `Bearer ${DEMO_KEY}` } })).json()) as {
        total: number;
      }
    ).total;
  const products = await total('/v1/catalog/products?activeOnly=false&pageSize=1');
  const stock = await total('/v1/inventory/stock?activeOnly=false&pageSize=1');
  expect(products).toBeGreaterThan(100);

  expect(await example()).toMatch(
    new RegExp(
      `^products: full walk: ${products} upserted, 0 removed, ${products} kept\\n` +
        `stock: full walk: ${stock} upserted, 0 removed, ${stock} kept\\n.*run 1, positions sp_[\\w-]{59} and sp_[\\w-]{59}\\n$`,
    ),
  );
  const copy = JSON.parse(readFileSync(file, 'utf8'));
  expect(Object.keys(copy.products)).toHaveLength(products);
  expect(Object.keys(copy.stock)).toHaveLength(stock);

  expect(await example()).toMatch(
    /^products: changes since sp_[\w-]{59}: 0 upserted.*\nstock: changes since sp_[\w-]{59}: 0 upserted/,
  );

  const [{ id }] = await t.db.query(`SELECT id FROM products WHERE tenant_id = 'ten_cornershop' ORDER BY id LIMIT 1`);
  await t.db.query(`UPDATE products SET selling_price_gross = 4.56 WHERE id = $1`, [id]);
  expect(await example()).toMatch(/^products: changes since sp_[\w-]{59}: 1 upserted, 0 removed/);
  expect(JSON.parse(readFileSync(file, 'utf8')).products[id].sellingPriceGross).toBe('4.56');

  await t.db.query(`DELETE FROM stock_levels WHERE product_id = $1`, [id]);
  await t.db.query(`DELETE FROM products WHERE id = $1`, [id]);
  expect(await example()).toMatch(
    new RegExp(
      `^products: changes since sp_[\\w-]{59}: 0 upserted, 1 removed, ${products - 1} kept\\n` +
        `stock: changes since sp_[\\w-]{59}: 0 upserted, 1 removed, ${stock - 1} kept\\n`,
    ),
  );
  expect(JSON.parse(readFileSync(file, 'utf8')).products[id]).toBeUndefined();

  // A refused position (here: not one the service handed out) falls back to a full walk.
  const stale = JSON.parse(readFileSync(file, 'utf8'));
  stale.positions.products = 'sp_0';
  stale.products.prd_not_in_the_service = stale.products[Object.keys(stale.products)[0]];
  writeFileSync(file, JSON.stringify(stale));
  expect(await example()).toMatch(
    new RegExp(
      `^products: position refused \\(.*\\): full walk\\nproducts: full walk: ${products - 1} upserted, 1 removed, ${products - 1} kept\\n`,
    ),
  );
  expect(JSON.parse(readFileSync(file, 'utf8')).products.prd_not_in_the_service).toBeUndefined();
});

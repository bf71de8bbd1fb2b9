import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { testTempDir } from './support/temp-dir.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * The plain-JavaScript client of docs/sync.md ("A client in plain JavaScript"), taken from the page as
 * it is written and run against the service with the demo data: after each sequence of writes (a
 * product deleted, moved out of the key's store and into it, a price changed; the key given more
 * stores; a store deleted and the key given fewer), one more run (an incremental round: changes, then
 * removals) makes its copy equal a fresh full walk, the same ids and the same fields, with no full walk.
 */
const run = promisify(execFile);
const demo = JSON.parse(readFileSync(new URL('../fixtures/demo.json', import.meta.url), 'utf8'));
/** The demo Camden web shop key: products and stock of sto_camden only. */
const WEB_KEY = 'ck_test_DemoCamdenWebsiteKey000000000000001';
type Row = Record<string, unknown>;

let t: TestApp;
let base: string;
let dir: string;
beforeAll(async () => {
  t = await createTestApp({ dataset: demo });
  await t.app.listen(0, '127.0.0.1');
  base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  dir = testTempDir('docs-sync-client');
  const page = readFileSync('docs/sync.md', 'utf8');
  const section = page.slice(page.indexOf('## A client in plain JavaScript'));
  const code = /```js\n([\s\S]*?)```/.exec(section)?.[1];
  if (code === undefined) throw new Error('docs/sync.md has no ```js block under "A client in plain JavaScript"');
  writeFileSync(join(dir, 'sync-client.mjs'), code);
});
afterAll(async () => t.close());

/** One run of the page's client; its output lines. */
async function client(): Promise<string[]> {
  const { stdout } = await run(process.execPath, [join(dir, 'sync-client.mjs')], {
    env: { PATH: process.env.PATH ?? '', API_BASE: base, API_KEY: WEB_KEY, SYNC_FILE: join(dir, 'copy.json') },
  });
  return stdout.trim().split('\n');
}

/** Every row the key reads now, by key: a fresh full walk. */
async function fullWalk(path: string, key: 'id' | 'productId'): Promise<Record<string, Row>> {
  const rows: Record<string, Row> = {};
  let url: string | undefined = `${path}?activeOnly=false&pageSize=100`;
  while (url !== undefined) {
    const res: { body: { rows: Row[] }; headers: Record<string, string> } = await t.get(url, WEB_KEY).expect(200);
    for (const row of res.body.rows) rows[row[key] as string] = row;
    url = /<([^>]+)>; rel="next"/.exec(res.headers.link ?? '')?.[1];
  }
  return rows;
}

/** The client's copy equals a full walk of each list, field by field. */
async function expectCopyEqualsFullWalk(): Promise<void> {
  const state = JSON.parse(readFileSync(join(dir, 'copy.json'), 'utf8'));
  const copy = (name: string) =>
    Object.fromEntries(Object.entries(state[name].rows as Record<string, { row: Row }>).map(([id, e]) => [id, e.row]));
  expect(copy('products')).toEqual(await fullWalk('/v1/catalog/products', 'id'));
  expect(copy('stock')).toEqual(await fullWalk('/v1/inventory/stock', 'productId'));
}

const setStores = (stores: string[]) =>
  t.db.query(`UPDATE api_clients SET allowed_store_ids = $1 WHERE id = 'cli_cs_web'`, [stores]);

it('keeps a copy equal to a full walk, deletions, moves and a narrowed key included, by incremental rounds only', async () => {
  const first = await client();
  expect(first).toEqual([
    expect.stringMatching(/^products: full walk, 38 rows, 0 deleted, copy of 38, position sp_[\w-]{59}$/),
    expect.stringMatching(/^stock: full walk, 38 rows, 0 deleted, copy of 38, position sp_[\w-]{59}$/),
  ]);
  await expectCopyEqualsFullWalk();

  // A product deleted, one moved out of the key's store, one moved into it, a price changed.
  const camden: { id: string }[] = await t.db.query(
    `SELECT id FROM products WHERE store_id = 'sto_camden' ORDER BY id LIMIT 3`,
  );
  const [{ id: incoming }] = await t.db.query(
    `SELECT id FROM products WHERE store_id = 'sto_islington' ORDER BY id LIMIT 1`,
  );
  await t.db.query(`DELETE FROM products WHERE id = $1`, [camden[0].id]);
  await t.db.query(`UPDATE products SET store_id = 'sto_islington', sku = sku || '-moved' WHERE id = $1`, [
    camden[1].id,
  ]);
  await t.db.query(`UPDATE products SET store_id = 'sto_camden', sku = sku || '-moved' WHERE id = $1`, [incoming]);
  await t.db.query(`UPDATE products SET selling_price_gross = selling_price_gross + 1 WHERE id = $1`, [camden[2].id]);
  const second = await client();
  expect(second).toEqual([
    expect.stringMatching(/^products: changes and removals, 2 rows, 2 deleted, copy of 37, position sp_/),
    expect.stringMatching(/^stock: changes and removals, \d+ rows, 2 deleted, copy of 37, position sp_/),
  ]);
  await expectCopyEqualsFullWalk();

  // The key given two more stores: every row of them comes as a change.
  await setStores(['sto_camden', 'sto_islington', 'sto_brixton']);
  expect(await client()).toEqual([
    expect.stringMatching(/^products: changes and removals, \d+ rows, 0 deleted, copy of 113, position sp_/),
    expect.stringMatching(/^stock: changes and removals, \d+ rows, 0 deleted, copy of 113, position sp_/),
  ]);
  await expectCopyEqualsFullWalk();

  // A store deleted, and the key given fewer stores: every row of both leaves the copy.
  await t.db.query(`DELETE FROM stores WHERE id = 'sto_brixton'`);
  await setStores(['sto_camden', 'sto_brixton']);
  expect(await client()).toEqual([
    expect.stringMatching(/^products: changes and removals, \d+ rows, 76 deleted, copy of 37, position sp_/),
    expect.stringMatching(/^stock: changes and removals, \d+ rows, 76 deleted, copy of 37, position sp_/),
  ]);
  await expectCopyEqualsFullWalk();
});

it('takes a full copy when its position is refused, and goes on incrementally from the new one', async () => {
  const file = join(dir, 'copy.json');
  const state = JSON.parse(readFileSync(file, 'utf8'));
  state.products.position = 'sp_0'; // not a position the service handed out: refused like a stale one
  state.products.rows.prd_not_in_the_service = { row: { id: 'prd_not_in_the_service' }, mark: 0 };
  writeFileSync(file, JSON.stringify(state));
  const lines = await client();
  expect(lines[0]).toBe('products: position refused, taking a full copy');
  expect(lines[1]).toMatch(/^products: full walk, 37 rows, 1 deleted, copy of 37, position sp_/);
  await expectCopyEqualsFullWalk();
  expect((await client())[0]).toMatch(/^products: changes and removals, 0 rows, 0 deleted, copy of 37/);
});

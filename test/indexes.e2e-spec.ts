import type { DataSource } from 'typeorm';
import { createDataSource } from '../src/database/data-source-options.js';
import { createTestDatabase, dropTestDatabase } from './support/test-database.js';

/**
 * Every filter and ordering of the five routes can be served by an index: with sequential scans
 * priced out, no plan may fall back to reading a whole table. (Which plan wins on real data is
 * measured by `npm run bench`, not here.)
 */
let url: string;
let db: DataSource;
beforeAll(async () => {
  url = await createTestDatabase();
  db = createDataSource({ url, poolSize: 1 });
  await db.initialize();
});
afterAll(async () => {
  await db.destroy();
  await dropTestDatabase(url);
});

const QUERIES: [string, string][] = [
  [
    'products of a tenant by id',
    `SELECT id FROM products p WHERE p.tenant_id = 't' AND p.is_active ORDER BY p.id LIMIT 100`,
  ],
  [
    'products of a store by id',
    `SELECT id FROM products p WHERE p.tenant_id = 't' AND p.store_id = ANY('{s1,s2}') ORDER BY p.id LIMIT 100`,
  ],
  ['products by sku', `SELECT id FROM products p WHERE p.tenant_id = 't' AND p.sku = 'X'`],
  ['products by barcode', `SELECT id FROM products p WHERE p.tenant_id = 't' AND p.barcode = 'X'`],
  [
    'products by category',
    `SELECT id FROM products p WHERE p.tenant_id = 't' AND p.category_id = 'c' ORDER BY p.id LIMIT 100`,
  ],
  ['products updated since', `SELECT count(*) FROM products p WHERE p.tenant_id = 't' AND p.updated_at >= now()`],
  ['products by search term', `SELECT count(*) FROM products p WHERE p.search_text LIKE '%cola%'`],
  ['product by id', `SELECT id FROM products p WHERE p.id = 'x' AND p.tenant_id = 't'`],
  [
    'low-stock rows',
    `SELECT count(*) FROM stock_levels s WHERE s.tenant_id = 't' AND s.track_stock AND s.quantity > 0 AND s.quantity <= s.reorder_level`,
  ],
  [
    'low-stock page of active products of a store',
    `SELECT s.product_id FROM stock_levels s WHERE s.tenant_id = 't' AND s.store_id = 's' AND s.product_is_active
    AND s.track_stock AND s.quantity > 0 AND s.quantity <= s.reorder_level ORDER BY s.product_id LIMIT 100`,
  ],
  ['stock of a page of products', `SELECT * FROM stock_levels s WHERE s.product_id = ANY('{a,b}')`],
  ['stock updated since', `SELECT count(*) FROM stock_levels s WHERE s.tenant_id = 't' AND s.updated_at >= now()`],
  ['categories of a tenant', `SELECT id FROM categories c WHERE c.tenant_id = 't' AND c.store_id = 's'`],
  ['categories by parent', `SELECT id FROM categories c WHERE c.tenant_id = 't' AND c.parent_category_id = 'p'`],
  [
    'promotions of a store',
    `SELECT id FROM promotions pr WHERE pr.tenant_id = 't' AND pr.store_id = 's' ORDER BY pr.id`,
  ],
  ['product counts of a tenant', `SELECT sum(n) FROM product_counts c WHERE c.tenant_id = 't' AND c.is_active`],
  ['key by digest', `SELECT id FROM api_keys k WHERE k.key_digest = 'd'`],
];

it.each(QUERIES)('%s uses an index', async (_name, sql) => {
  const runner = db.createQueryRunner();
  try {
    await runner.query('SET enable_seqscan = off');
    const [{ 'QUERY PLAN': plan }] = await runner.query(`EXPLAIN (FORMAT JSON) ${sql}`);
    const text = JSON.stringify(plan);
    expect(text).not.toContain('"Seq Scan"');
    expect(text).toMatch(/Index (Only )?Scan|Bitmap Index Scan/);
  } finally {
    await runner.query('RESET enable_seqscan');
    await runner.release();
  }
});

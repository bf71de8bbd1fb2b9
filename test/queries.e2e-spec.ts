import { readFileSync, writeFileSync } from 'node:fs';
import { ApiKeysRepository } from '../src/auth/api-keys.repository.js';
import { CategoriesRepository } from '../src/catalog/categories/categories.repository.js';
import { PRODUCT_LIST } from '../src/catalog/products/products.list.js';
import { PromotionsRepository } from '../src/catalog/promotions/promotions.repository.js';
import { STOCK_LIST } from '../src/inventory/stock/stock.list.js';
import type { FilterValues } from '../src/lists/list-definition.js';
import { ListEngine } from '../src/lists/list-engine.js';
import type { PageWindow, SyncRead } from '../src/lists/list-statements.js';
import type { DataScope } from '../src/tenancy/data-scope.js';
import { StoresRepository } from '../src/tenancy/stores.repository.js';
import { parseRfc3339DateTime } from '../src/values/formats.js';
import { testDataset } from './support/dataset.js';
import { type RecordedStatement, recordStatements } from './support/recorded-statements.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * The SQL of every repository, as PostgreSQL receives it, committed under src/queries/ so that a
 * changed statement shows up in review (`npm run sql` rewrites the files; this test fails while they
 * differ). Every statement is also EXPLAINed with its values: with sequential scans priced out, no
 * plan may read a whole table, so every filter and ordering of the routes is served by an index.
 */
let t: TestApp;
let record: ReturnType<typeof recordStatements>;
beforeAll(async () => {
  t = await createTestApp({ dataset: testDataset() });
  // A store comes into cli_a_all's view (narrowed, then widened again): a round since brings its rows.
  await t.db.query(`UPDATE api_clients SET allowed_store_ids = '{sto_a1}' WHERE id = 'cli_a_all'`);
  await t.db.query(`UPDATE api_clients SET allowed_store_ids = NULL WHERE id = 'cli_a_all'`);
  record = recordStatements(t.app);
});
afterAll(async () => t.close());

const scope = (tenantId: string, storeIds: string[] | null): DataScope =>
  ({ tenantId, storeIds, clientId: 'cli_a_all', deadlineMs: Date.now() + 60_000 }) as unknown as DataScope;
/** A position after every change of the test data: a round in which only rows changed, no parent. */
const RECENT = '9000000000';
const TENANT = scope('ten_a', null);
const ONE_STORE = scope('ten_a', ['sto_a1']);
const STORES = scope('ten_a', ['sto_a1', 'sto_a2']);
const instant = (text: string) => parseRfc3339DateTime(text)!;
const page = (pageSize: number, offset = 0) => ({ pageSize, offset });

type Example = [description: string, run: () => Promise<unknown>];

const list =
  (definition: typeof PRODUCT_LIST | typeof STOCK_LIST) =>
  (scope: DataScope, filters: FilterValues, window: PageWindow, sync: SyncRead = {}) =>
    t.app.get(ListEngine).read(definition, { scope, filters, window, sync });

const FILES: Record<string, () => Example[]> = {
  'products.repository.sql': () => {
    const products = {
      list: list(PRODUCT_LIST),
      findById: (scope: DataScope, id: string) => t.app.get(ListEngine).findOne(PRODUCT_LIST, scope, id),
    };
    const active = { activeOnly: true };
    return [
      ['list: active products of every store, page 1', () => products.list(TENANT, active, page(50))],
      ['list: every product of one store, page 3', () => products.list(ONE_STORE, { activeOnly: false }, page(2, 4))],
      [
        'list: by category, sku, barcode and updatedSince in a list of stores',
        () =>
          products.list(
            STORES,
            {
              ...active,
              categoryId: 'cat_a1_soft',
              sku: 'COLA-330',
              barcode: '5000112637922',
              updatedSince: instant('2026-10-01T00:00:00Z'),
            },
            page(50),
          ),
      ],
      ['list: search terms (not prepared)', () => products.list(TENANT, { ...active, q: ['cola', '330'] }, page(50))],
      ['list: after an id (cursor)', () => products.list(TENANT, active, { ...page(50), afterId: 'prd_a1_cola' })],
      [
        'list: a sync walk begins (every row, the position taken)',
        () => products.list(TENANT, { activeOnly: false }, page(100), { takeHorizon: true }),
      ],
      [
        'list: a page of an incremental sync walk (changed since a position, after an id)',
        () =>
          products.list(
            TENANT,
            { activeOnly: false },
            { ...page(100), afterId: 'prd_a1_cola' },
            { changedSince: RECENT, caughtUpTo: RECENT },
          ),
      ],
      [
        'list: a page of an incremental sync walk after VAT rates changed and stores came into view',
        () =>
          products.list(
            TENANT,
            { activeOnly: false },
            { ...page(100), afterId: 'prd_a1_cola' },
            { changedSince: '1', caughtUpTo: '2' },
          ),
      ],
      ['findById', () => products.findById(TENANT, 'prd_a1_cola')],
      ['findById: a key limited to one store', () => products.findById(ONE_STORE, 'prd_a1_cola')],
    ];
  },
  'stock.repository.sql': () => {
    const stock = { list: list(STOCK_LIST) };
    const plain = { activeOnly: true, lowStockOnly: false };
    return [
      ['list: every store, page 1', () => stock.list(TENANT, plain, page(50))],
      [
        'list: low stock alone, one store (partial index)',
        () => stock.list(ONE_STORE, { ...plain, lowStockOnly: true }, page(50)),
      ],
      [
        'list: product filters with low stock, a list of stores',
        () =>
          stock.list(
            STORES,
            {
              activeOnly: false,
              lowStockOnly: true,
              productId: 'prd_a1_diet',
              sku: 'COLA-330-D',
              barcode: '5000112637939',
              categoryId: 'cat_a1_soft',
            },
            page(50),
          ),
      ],
      [
        'list: updatedSince',
        () => stock.list(TENANT, { ...plain, updatedSince: instant('2026-10-03T00:00:00Z') }, page(50)),
      ],
      ['list: after an id (cursor)', () => stock.list(TENANT, plain, { ...page(50), afterId: 'prd_a1_cola' })],
      [
        'list: an incremental sync walk begins (rows whose product or stock level changed)',
        () =>
          stock.list(ONE_STORE, { activeOnly: false, lowStockOnly: false }, page(100), {
            changedSince: '1',
            takeHorizon: true,
          }),
      ],
      [
        'list: a page of an incremental sync walk',
        () =>
          stock.list(
            TENANT,
            { activeOnly: false, lowStockOnly: false },
            { ...page(100), afterId: 'prd_a1_cola' },
            { changedSince: '1', caughtUpTo: '2' },
          ),
      ],
    ];
  },
  'categories.repository.sql': () => {
    const categories = t.app.get(CategoriesRepository);
    return [
      [
        'list: active categories by sortOrder',
        () => categories.list(TENANT, { activeOnly: true, sortBy: 'sortOrder' }),
      ],
      [
        'list: children of a category by name, inactive too, one store',
        () => categories.list(ONE_STORE, { activeOnly: false, parentCategoryId: 'cat_a1_drinks', sortBy: 'name' }),
      ],
    ];
  },
  'promotions.repository.sql': () => {
    const promotions = t.app.get(PromotionsRepository);
    return [
      ['list: ACTIVE and PAUSED of every store', () => promotions.list(TENANT, {})],
      [
        'list: active at an instant, of one type, one store',
        () => promotions.list(ONE_STORE, { type: 'MULTI_BUY', activeAt: instant('2026-12-01T12:00:00Z') }),
      ],
      [
        'names: of products and categories in a list of stores',
        () => promotions.names(STORES, { products: ['prd_a1_cola'], categories: ['cat_a1_soft'] }),
      ],
    ];
  },
  'stores.repository.sql': () => [
    ['exists', () => t.app.get(StoresRepository).exists('ten_a', 'sto_a1', 'cli_a_all', Date.now() + 60_000)],
  ],
  'api-keys.repository.sql': () => [
    ['findByDigest', () => t.app.get(ApiKeysRepository).findByDigest('0'.repeat(64), Date.now() + 60_000)],
  ],
};

async function render(file: string): Promise<{ sql: string; statements: RecordedStatement[] }> {
  const lines = [
    `-- Generated by test/queries.e2e-spec.ts: run \`npm run sql\` after changing a statement. Do not edit.`,
  ];
  const statements: RecordedStatement[] = [];
  for (const [description, run] of FILES[file]()) {
    record.take();
    await run();
    for (const s of record.take()) {
      statements.push(s);
      lines.push('', `-- ${description}${s.prepared ? '' : ' (planned for its values, not prepared)'}`);
      s.values.forEach((value, i) => lines.push(`--   $${i + 1} = ${JSON.stringify(value)}`));
      lines.push(`${s.text};`);
    }
  }
  return { sql: `${lines.join('\n')}\n`, statements };
}

describe.each(Object.keys(FILES))('src/queries/%s', (file) => {
  let rendered: Awaited<ReturnType<typeof render>>;
  beforeAll(async () => {
    rendered = await render(file);
  });

  it('is the SQL the repository runs', () => {
    const path = new URL(`../src/queries/${file}`, import.meta.url);
    if (process.env.UPDATE_SQL === '1') writeFileSync(path, rendered.sql);
    expect(readFileSync(path, 'utf8')).toBe(rendered.sql);
  });

  it('uses an index for every statement', async () => {
    const runner = t.db.createQueryRunner();
    try {
      await runner.query('SET enable_seqscan = off');
      for (const s of rendered.statements) {
        const [{ 'QUERY PLAN': plan }] = await runner.query(`EXPLAIN (FORMAT JSON) ${s.text}`, [...s.values]);
        const text = JSON.stringify(plan);
        expect({ statement: s.text, seqScan: text.includes('"Seq Scan"') }).toEqual({
          statement: s.text,
          seqScan: false,
        });
        expect(text).toMatch(/Index (Only )?Scan|Bitmap Index Scan/);
      }
    } finally {
      await runner.query('RESET enable_seqscan');
      await runner.release();
    }
  });
});

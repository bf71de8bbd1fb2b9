import '../src/app.module.js';
import { definedLists, type FilterDefinition, type ListDefinition } from '../src/lists/list-definition.js';
import { type ListRead, ListStatements } from '../src/lists/list-statements.js';
import type { DataScope } from '../src/tenancy/data-scope.js';
import { parseRfc3339DateTime } from '../src/values/formats.js';
import { testDataset } from './support/dataset.js';
import { seededRandom } from './support/sync-harness.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * What the list engine derives from a definition holds for any request, not only the ones a test
 * thought of: generated reads (filters in use or not, their values, scopes, pages, sync) get from the
 * statement cache exactly the statement a fresh writer writes for them, so no filter can be left out
 * of the cache key; and each declared filter's index exists and serves the filter alone.
 * LISTS_SEED=n replays a run.
 */
const SEED = Number(process.env.LISTS_SEED ?? Math.floor(Math.random() * 2 ** 31));
const LISTS: [name: string, definition: ListDefinition][] = definedLists().map((d) => [d.name, d]);

const scope = (storeIds: string[] | null): DataScope =>
  ({ tenantId: 'ten_a', storeIds, clientId: 'cli_a_all', deadlineMs: Date.now() + 60_000 }) as unknown as DataScope;

/** A value for a filter of any list, by name (a choice: one of its values). */
function valueOf(name: string, random: () => number, choices?: readonly string[]): unknown {
  if (choices !== undefined) return choices[Math.floor(random() * choices.length)];
  switch (name) {
    case 'activeOnly':
    case 'lowStockOnly':
      return random() < 0.5;
    case 'updatedSince':
    case 'activeAt':
      return parseRfc3339DateTime('2026-10-03T00:00:00Z');
    case 'productId':
      return 'prd_many_7';
    case 'sku':
      return 'MANY-7';
    case 'barcode':
      return '7000000000007';
    case 'categoryId':
      return 'cat_a1_soft';
    case 'parentCategoryId':
      return 'cat_a1_drinks';
    case 'ids':
      return ['prd_a1_cola', 'cat_a1_soft'].slice(0, 1 + Math.floor(random() * 2));
    case 'q':
      return Array.from({ length: 1 + Math.floor(random() * 2) }, (_, n) => `many-1234${n}`);
    default:
      return `value${Math.floor(random() * 3)}`;
  }
}

function generatedRead(definition: ListDefinition, random: () => number): ListRead {
  const filters: Record<string, unknown> = {};
  for (const [name, filter] of Object.entries(definition.filters as Record<string, FilterDefinition>)) {
    // A list with an order picked by a choice always has one (the query DTO's default).
    if (random() < 0.4 || definition.order?.by === name) filters[name] = valueOf(name, random, filter.choices);
  }
  const stores = [null, ['sto_a1'], ['sto_a1', 'sto_a2']][Math.floor(random() * 3)];
  const syncable = definition.sync !== undefined;
  const sync =
    syncable && random() < 0.3
      ? { changedSince: '5', takeHorizon: random() < 0.5 }
      : { takeHorizon: syncable && random() < 0.3 };
  const window =
    random() < 0.5
      ? { pageSize: 10, offset: Math.floor(random() * 3) * 10 }
      : { pageSize: 10, offset: 0, afterId: 'prd_a1_cola' };
  return { scope: scope(stores), filters, window, sync };
}

describe.each(LISTS)('the %s list definition', (_name, definition) => {
  it('gets from the statement cache exactly what a fresh writer writes, for generated reads', () => {
    const random = seededRandom(SEED);
    const cached = new ListStatements(definition);
    for (let n = 0; n < 400; n++) {
      const read = generatedRead(definition, random);
      const fresh = new ListStatements(definition);
      for (const kind of ['count', 'page', 'all'] as const) {
        // A list read whole has no page and no sync.
        const input = kind === 'all' ? { ...read, sync: {} } : read;
        const got = cached[kind](input);
        const want = fresh[kind](input);
        if (got.text !== want.text || JSON.stringify(got.values(input)) !== JSON.stringify(want.values(input))) {
          throw new Error(
            `LISTS_SEED=${SEED}: read ${n} (${JSON.stringify(read.filters)}) got a cached ${kind} statement ` +
              `written for another shape:\n${got.text}\ninstead of\n${want.text}`,
          );
        }
      }
    }
  });
});

describe('the indexes the filters declare', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dataset: testDataset() });
    // Enough rows, analyzed, for the planner to tell indexes apart (on a few dozen rows any will do).
    await t.db.query(`INSERT INTO products (id, tenant_id, store_id, category_id, name, sku, barcode, brand, unit_type,
        selling_price_gross, selling_price_net, tax_category, vat_rate_id, is_active, variable_price, age_restricted,
        alcohol_restricted, tobacco_restricted, vape_restricted, updated_at)
      SELECT 'prd_many_' || n, 'ten_a', 'sto_a2', CASE n % 3 WHEN 0 THEN 'cat_a2_drinks' WHEN 1 THEN 'cat_a1_soft' END,
             'Item ' || n, 'MANY-' || n, (7000000000000 + n)::text, 'Brand ' || (n % 50), 'item', 1, 1, 'STANDARD',
             'vat_a_std', n % 10 <> 0, false, false, false, false, false,
             timestamptz '2020-01-01' + n * interval '1 minute'
        FROM generate_series(1, 20000) n`);
    await t.db.query(`INSERT INTO stock_levels (product_id, tenant_id, store_id, track_stock, quantity, reorder_level,
        low_stock_threshold, updated_at)
      SELECT id, tenant_id, store_id, true, (random() * 50)::numeric(14, 3), 5, 5, updated_at
        FROM products WHERE id LIKE 'prd_many_%'`);
    await t.db.query('ANALYZE products; ANALYZE stock_levels');
  });
  afterAll(async () => t.close());

  it.each(
    LISTS.flatMap(([name, definition]) =>
      Object.entries(definition.filters)
        .filter(([, filter]) => filter.index !== undefined)
        .map(([filter, { index, planEachTime }]) => [name, filter, index!, definition, planEachTime === true] as const),
    ),
  )('%s %s: %s exists and serves the filter alone', async (_list, filter, index, definition, planEachTime) => {
    const [found] = await t.db.query(`SELECT 1 AS found FROM pg_indexes WHERE indexname = $1`, [index]);
    expect({ index, found: found?.found }).toEqual({ index, found: 1 });
    // A text search is planned for its terms, on the real data: which index serves it is the planner's call.
    if (planEachTime) return;
    // The total of the rows that match the filter alone, planned with sequential scans priced out.
    const random = seededRandom(SEED);
    const read: ListRead = {
      scope: scope(null),
      filters: { activeOnly: false, [filter]: filter === 'activeOnly' ? true : valueOf(filter, random) },
      window: { pageSize: 10, offset: 0 },
      sync: {},
    };
    if (filter === 'lowStockOnly') (read.filters as Record<string, unknown>).lowStockOnly = true;
    const statement = new ListStatements(definition).count(read);
    const runner = t.db.createQueryRunner();
    try {
      await runner.query('SET enable_seqscan = off');
      const [{ 'QUERY PLAN': plan }] = await runner.query(`EXPLAIN (FORMAT JSON) ${statement.text}`, [
        ...statement.values(read),
      ]);
      const used = [...JSON.stringify(plan).matchAll(/"Index Name":"([^"]+)"/g)].map((m) => m[1]);
      expect({ filter, index, used: used.includes(index) ? index : used }).toEqual({ filter, index, used: index });
    } finally {
      await runner.query('RESET enable_seqscan');
      await runner.release();
    }
  });
});

import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * `npm run dev:changes` (docs/sync.md, docs/development.md): it changes rows of the local database,
 * and an incremental round from a position taken before brings every change.
 */
const run = promisify(execFile);
const demo = JSON.parse(readFileSync(new URL('../fixtures/demo.json', import.meta.url), 'utf8'));
const DEMO_KEY = 'ck_test_DemoErpSyncKey0000000000000000000001';
type Row = Record<string, string | boolean | null>;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ dataset: demo });
});
afterAll(async () => t.close());

/** Every row of a sync walk (from `changedSince` when given), following Link next; and its new position. */
async function walk(route: string, changedSince?: string): Promise<{ rows: Row[]; position: string }> {
  let path: string | undefined =
    `${route}?activeOnly=false&pageSize=100${changedSince ? `&changedSince=${encodeURIComponent(changedSince)}` : ''}`;
  const rows: Row[] = [];
  let position = '';
  while (path !== undefined) {
    // Typed here: the loop's own variable would otherwise be inferred from itself.
    const res: { body: { rows: Row[] }; headers: Record<string, string> } = await t.get(path, DEMO_KEY).expect(200);
    rows.push(...res.body.rows);
    position = res.headers['sync-position'];
    path = /<([^>]+)>; rel="next"/.exec(res.headers.link ?? '')?.[1];
  }
  return { rows, position };
}

async function devChanges(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return run(process.execPath, ['dist/tools/cli/dev-changes.js', ...args], {
    env: { PATH: process.env.PATH ?? '', DATABASE_URL: t.databaseUrl, APP_ENV: 'development' },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );
}

it('changes prices, a deactivation, stock levels and a VAT rate; an incremental round brings them all', async () => {
  const products = await walk('/v1/catalog/products');
  const stock = await walk('/v1/inventory/stock');
  const before = new Map(products.rows.map((row) => [row.id as string, row]));

  const { code, stdout, stderr } = await devChanges('--json');
  expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  const { tenantId, changes } = JSON.parse(stdout) as {
    tenantId: string;
    changes: { kind: string; id: string; from: string; to: string }[];
  };
  expect(tenantId).toBe('ten_cornershop');
  expect(changes.map((c) => c.kind).sort()).toEqual([
    'deactivation',
    'price',
    'price',
    'price',
    'stock',
    'stock',
    'stock',
    'vat_rate',
  ]);
  expect(changes.filter((c) => c.from === c.to)).toEqual([]);

  const products2 = await walk('/v1/catalog/products', products.position);
  const stock2 = await walk('/v1/inventory/stock', stock.position);
  const after = new Map(products2.rows.map((row) => [row.id as string, row]));
  for (const c of changes.filter((c) => c.kind === 'price')) {
    expect([c.id, after.get(c.id)?.sellingPriceGross]).toEqual([c.id, c.to]);
    expect(before.get(c.id)?.sellingPriceGross).toBe(c.from);
  }
  for (const c of changes.filter((c) => c.kind === 'deactivation'))
    expect([c.id, after.get(c.id)?.isActive]).toEqual([c.id, false]);
  const stockAfter = new Map(stock2.rows.map((row) => [row.productId as string, row]));
  for (const c of changes.filter((c) => c.kind === 'stock'))
    expect([c.id, stockAfter.get(c.id)?.quantity]).toEqual([c.id, c.to]);
  // Every product of the edited VAT rate comes back with the new percentage, though none was written.
  const vat = changes.find((c) => c.kind === 'vat_rate')!;
  const using = products.rows.filter((row) => (row.vatRate as unknown as { id: string } | null)?.id === vat.id);
  expect(using.length).toBeGreaterThan(0);
  for (const row of using) {
    const vatRate = after.get(row.id as string)?.vatRate as unknown as { percentage: string } | undefined;
    expect([row.id, vatRate?.percentage]).toEqual([row.id, vat.to]);
  }
  // Only what changed comes back (a round is not a full walk).
  expect(products2.rows.length).toBeLessThan(products.rows.length);
});

it('is refused on a production configuration', async () => {
  const { code, stderr } = await run(process.execPath, ['dist/tools/cli/dev-changes.js'], {
    env: { PATH: process.env.PATH ?? '', DATABASE_URL: t.databaseUrl, APP_ENV: 'production' },
  }).then(
    () => ({ code: 0, stderr: '' }),
    (e: { code: number; stderr: string }) => e,
  );
  expect(code).toBe(1);
  expect(stderr).toContain('development command');
});

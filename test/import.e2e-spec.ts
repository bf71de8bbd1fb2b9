import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { DataSource } from 'typeorm';
import { createDataSource } from '../src/database/data-source-options.js';
import { DatasetImportError, importDataset } from '../src/dataset/import-dataset.js';
import { formatProblem } from '../src/dataset/validate-dataset.js';
import { testDataset } from './support/dataset.js';
import { createTestDatabase, dropTestDatabase } from './support/test-database.js';
import { testTempDir } from './support/temp-dir.js';

const run = promisify(execFile);
const dir = testTempDir('import');
let url: string;
let db: DataSource;

beforeAll(async () => {
  url = await createTestDatabase();
  db = createDataSource({ url, poolSize: 2 });
  await db.initialize();
});
afterAll(async () => {
  await db.destroy();
  await dropTestDatabase(url);
});

async function counts(): Promise<Record<string, number>> {
  const tables = [
    'tenants',
    'stores',
    'products',
    'categories',
    'stock_levels',
    'stock_cost_layers',
    'stock_movements',
    'promotions',
    'api_clients',
    'api_keys',
  ];
  const out: Record<string, number> = {};
  for (const table of tables) out[table] = Number((await db.query(`SELECT count(*) AS n FROM ${table}`))[0].n);
  return out;
}

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['dist/tools/cli/db-import.js', ...args], {
      env: { ...process.env, DATABASE_URL: url },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

function file(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' || Buffer.isBuffer(content) ? content : JSON.stringify(content));
  return path;
}

async function problemsOf(input: unknown, replace = false): Promise<string[]> {
  try {
    await importDataset(db, input, { replace });
  } catch (error) {
    if (error instanceof DatasetImportError) return error.problems.map(formatProblem);
    throw error;
  }
  throw new Error('expected the import to fail');
}

describe('npm run db:import', () => {
  it('accepts an empty file {}', async () => {
    const res = await cli([file('empty.json', {})]);
    expect(res.code).toBe(0);
  });

  it('loads the demo data set and the test data set, storing keys only as digests', async () => {
    const demo = await cli(['fixtures/demo.json']);
    expect(demo.stderr).toBe('');
    expect(demo.code).toBe(0);
    expect(demo.stdout).toMatch(/Imported fixtures\/demo.json: 2 tenants, 4 stores, 5 VAT rates, /);
    const one = await cli([file('one.json', { tenants: [{ id: 'ten_one', name: 'One', currency: 'EUR' }] })]);
    expect(one.stdout).toBe(`Imported ${join(dir, 'one.json')}: 1 tenant.\n`);
    const res = await cli([file('test.json', testDataset())]);
    expect(res.code).toBe(0);
    const keys = await db.query(`SELECT key_digest, key_hint FROM api_keys WHERE id = 'key_a_all'`);
    expect(keys[0].key_digest).toMatch(/^[0-9a-f]{64}$/);
    expect(keys[0].key_hint).toBe('ck_test_…0001');
    const dump = JSON.stringify(await db.query('SELECT * FROM api_keys'));
    expect(dump).not.toContain('TenantAllScopesKey');
  });

  it('mirrors lowStockThreshold from reorderLevel on every save, whoever saves', async () => {
    const [row] = await db.query(
      `SELECT reorder_level, low_stock_threshold FROM stock_levels WHERE product_id = 'prd_a1_cola'`,
    );
    expect(row).toEqual({ reorder_level: '12.000', low_stock_threshold: '12.000' });
    await db.query(
      `UPDATE stock_levels SET reorder_level = 7.5, low_stock_threshold = 99 WHERE product_id = 'prd_a1_cola'`,
    );
    const [after] = await db.query(`SELECT low_stock_threshold FROM stock_levels WHERE product_id = 'prd_a1_cola'`);
    expect(after.low_stock_threshold).toBe('7.500');
  });

  it('reports every problem with its JSON path, exits non-zero and writes nothing', async () => {
    const before = await counts();
    const bad = testDataset();
    (bad.products[0] as Record<string, unknown>).vatRateId = 'vat_b_std';
    (bad.products[1] as Record<string, unknown>).sellingPriceGross = 1.2;
    (bad.products[2] as Record<string, unknown>).unitType = 'box';
    (bad.products[3] as Record<string, unknown>).updatedAt = '2026-02-30T00:00:00Z';
    (bad.products[4] as Record<string, unknown>).sku = 'COLA-330';
    (bad.categories[0] as Record<string, unknown>).sortOrdr = 1;
    (bad.apiClients[0] as Record<string, unknown>).scopes = ['catalog.products.write'];
    (bad.stockLevels[0] as Record<string, unknown>).productId = 'prd_missing';
    (bad.promotions[0] as Record<string, unknown>).conditions = [
      { kind: 'category_quantity', minQuantity: 3, categoryIds: ['cat_b1_drinks'] },
    ];
    bad.products.push({
      ...(bad.products[0] as Record<string, unknown>),
      id: 'prd_new',
      sku: 'NEW-1',
      vatRateId: 'vat_a_std',
      storeId: 'sto_zz',
    });
    const res = await cli([file('bad.json', bad)]);
    expect(res.code).not.toBe(0);
    expect(res.stdout).toBe('');
    const lines = res.stderr;
    expect(lines).toContain('nothing was written');
    // Malformed fields and broken references are reported together, in one run.
    expect(lines).toContain('products[0].vatRateId: no VAT rate "vat_b_std" in tenant "ten_a"');
    expect(lines).toContain('stockLevels[0].productId: no product "prd_missing"');
    expect(lines).toContain(
      'promotions[0].conditions[0].categoryIds[0]: no category "cat_b1_drinks" in tenant "ten_a"',
    );
    expect(lines).toContain(`products[${bad.products.length - 1}].storeId: no store "sto_zz"`);
    expect(lines).toContain('10 problems');
    expect(lines).toContain('products[1].sellingPriceGross: must be a decimal number written as a string');
    expect(lines).toContain('products[2].unitType: must be one of item, kg, g, litre, ml, got "box"');
    expect(lines).toContain('products[3].updatedAt: must be an RFC 3339 date-time');
    expect(lines).toContain('categories[0].sortOrdr: is not a field of this record');
    expect(lines).toContain('apiClients[0].scopes[0]: must be one of catalog.products.read');
    expect(await counts()).toEqual(before);

    const refs = testDataset();
    (refs.products[0] as Record<string, unknown>).vatRateId = 'vat_b_std';
    (refs.products[4] as Record<string, unknown>).sku = 'COLA-330';
    (refs.stockLevels[0] as Record<string, unknown>).productId = 'prd_missing';
    (refs.promotions[0] as Record<string, unknown>).conditions = [
      { kind: 'category_quantity', minQuantity: 3, categoryIds: ['cat_b1_drinks'] },
    ];
    (refs.categories[1] as Record<string, unknown>).parentCategoryId = 'cat_a2_drinks';
    (refs.apiClients[1] as Record<string, unknown>).allowedStoreIds = ['sto_b1'];
    expect(await problemsOf(refs)).toEqual(
      expect.arrayContaining([
        'products[0].vatRateId: no VAT rate "vat_b_std" in tenant "ten_a"',
        'products[4].sku: duplicate sku "COLA-330" in store "sto_a1" (also products[0])',
        'stockLevels[0].productId: no product "prd_missing"',
        'promotions[0].conditions[0].categoryIds[0]: no category "cat_b1_drinks" in tenant "ten_a"',
        'categories[1].parentCategoryId: no category "cat_a2_drinks" in store "sto_a1"',
        'apiClients[1].allowedStoreIds[0]: no store "sto_b1" in tenant "ten_a"',
      ]),
    );
    expect(await counts()).toEqual(before);
  });

  it('refuses decimals and date-times that the columns would round, and accepts trailing zeros', async () => {
    const before = await counts();
    const bad = testDataset();
    (bad.products[0] as Record<string, unknown>).sellingPriceGross = '1.205';
    (bad.stockLevels[0] as Record<string, unknown>).quantity = '48.0004';
    (bad.products[1] as Record<string, unknown>).updatedAt = '2026-10-02T09:30:00.9999Z';
    const problems = await problemsOf(bad);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^products\[0\]\.sellingPriceGross: .*at most 12 digits before the point and 2 after it, got "1.205"$/,
        ),
        expect.stringMatching(/^stockLevels\[0\]\.quantity: .*and 3 after it, got "48.0004"$/),
        'products[1].updatedAt: must not be more precise than milliseconds (they are stored to the ' +
          'millisecond), got "2026-10-02T09:30:00.9999Z"',
      ]),
    );
    expect(problems).toHaveLength(3);
    expect(await counts()).toEqual(before);

    const exact = testDataset();
    const product = exact.products[0] as Record<string, unknown>;
    product.sellingPriceGross = '1.2000';
    product.updatedAt = '2026-10-02T09:30:00.123000Z';
    await importDataset(db, { products: [product] }, { replace: false });
    const [row] = await db.query(`SELECT selling_price_gross, updated_at FROM products WHERE id = $1`, [product.id]);
    expect(row.selling_price_gross).toBe('1.20');
    expect((row.updated_at as Date).toISOString()).toBe('2026-10-02T09:30:00.123Z');
    await importDataset(db, { products: [testDataset().products[0]] }, { replace: false });
  });

  it('refuses a lone surrogate in any string with its JSON path, instead of storing U+FFFD', async () => {
    const before = await counts();
    const bad = testDataset();
    (bad.products[0] as Record<string, unknown>).name = 'Cola \ud800 330ml';
    (bad.categories[0] as Record<string, unknown>).description = 'ends badly \udc00';
    (bad.promotions[0] as Record<string, unknown>).builderConfig = { canvas: { label: ['ok', 'x\ud83d'] } };
    expect(await problemsOf(bad)).toEqual([
      'categories[0].description: must be valid Unicode text: it holds a lone surrogate (\\udc00), which cannot be stored',
      'products[0].name: must be valid Unicode text: it holds a lone surrogate (\\ud800), which cannot be stored',
      'promotions[0].builderConfig.canvas.label[1]: must be valid Unicode text: it holds a lone surrogate (\\ud83d), ' +
        'which cannot be stored',
    ]);
    // The same through the command, from a file that writes the surrogate as a JSON escape.
    const res = await cli([
      file('surrogate.json', '{"tenants": [{"id": "ten_s", "name": "S\\ud800", "currency": "GBP"}]}'),
    ]);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain('tenants[0].name: must be valid Unicode text');
    expect(await counts()).toEqual(before);
    // A pair of surrogates is one character (U+1F600), and is stored as it is.
    const product: Record<string, unknown> = {
      ...(testDataset().products[0] as Record<string, unknown>),
      name: 'Cola \ud83d\ude00',
    };
    await importDataset(db, { products: [product] }, { replace: false });
    expect((await db.query(`SELECT name FROM products WHERE id = $1`, [product.id]))[0].name).toBe('Cola 😀');
    await importDataset(db, { products: [testDataset().products[0]] }, { replace: false });
  });

  it('refuses a file that is not UTF-8 with the JSON path of each string it falls in, writing nothing', async () => {
    const before = await counts();
    const data = testDataset();
    (data.products[3] as Record<string, unknown>).name = 'Cola @BAD1@ 330ml';
    (data.categories[0] as Record<string, unknown>).description = 'Drinks @BAD2@ and @BAD1@';
    // Raw bytes, as a file written in another encoding has them: 0xFF, and 0xC3 before a "(".
    const text = JSON.stringify(data, null, 1);
    const bytes = Buffer.concat(
      text
        .split(/(@BAD\d@)/)
        .map((part) =>
          part === '@BAD1@' ? Buffer.from([0xff]) : part === '@BAD2@' ? Buffer.from([0xc3, 0x28]) : Buffer.from(part),
        ),
    );
    const lineOf = (marker: string): number => text.slice(0, text.indexOf(marker)).split('\n').length;
    const res = await cli([file('latin1.json', bytes)]);
    expect(res.code).not.toBe(0);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain('nothing was written; 2 problems');
    expect(res.stderr).toContain(
      `products[3].name: must be UTF-8 text: the file holds 0xFF (line ${lineOf('Cola @BAD1@')}) here`,
    );
    const description = lineOf('Drinks @BAD2@');
    expect(res.stderr).toContain(
      `categories[0].description: must be UTF-8 text: the file holds 0xC3 (line ${description}), ` +
        `0xFF (line ${description}) here`,
    );
    expect(await counts()).toEqual(before);
    // Outside any string, where the JSON is broken too: the line says where.
    const outside = await cli([file('outside.json', Buffer.from([0x7b, 0x0a, 0xfe, 0x0a, 0x7d]))]);
    expect(outside.code).not.toBe(0);
    expect(outside.stderr).toContain('$: the file is not UTF-8: it holds 0xFE (line 2)');
    // U+FFFD written as UTF-8 is text like any other.
    const replacement = await cli([
      file('fffd.json', '{"tenants": [{"id": "ten_r", "name": "R \ufffd", "currency": "GBP"}]}'),
    ]);
    expect(replacement.code).toBe(0);
    await db.query(`DELETE FROM tenants WHERE id = 'ten_r'`);
  });

  it('lets one file swap skus between existing products of a store, and still refuses a sku used twice', async () => {
    const [cola, diet] = ['prd_a1_cola', 'prd_a1_diet'].map(
      (id) => testDataset().products.find((p) => (p as { id: string }).id === id) as Record<string, unknown>,
    );
    await importDataset(
      db,
      {
        products: [
          { ...cola, sku: diet.sku },
          { ...diet, sku: cola.sku },
        ],
      },
      { replace: false },
    );
    const skus = async (): Promise<Record<string, string>> =>
      Object.fromEntries(
        (await db.query(`SELECT id, sku FROM products WHERE id IN ('prd_a1_cola', 'prd_a1_diet')`)).map(
          (r: { id: string; sku: string }) => [r.id, r.sku],
        ),
      );
    expect(await skus()).toEqual({ prd_a1_cola: diet.sku, prd_a1_diet: cola.sku });
    await importDataset(db, { products: [cola, diet] }, { replace: false });
    expect(await skus()).toEqual({ prd_a1_cola: cola.sku, prd_a1_diet: diet.sku });
    expect(await problemsOf({ products: [{ ...cola, sku: diet.sku }] })).toEqual([
      `products[0].sku: sku "${diet.sku}" is already used by product "prd_a1_diet" in store "sto_a1"`,
    ]);
  });

  it('stores date-times with any RFC 3339 offset exactly, and refuses instants the timestamp format cannot write', async () => {
    const before = await counts();
    const bad = testDataset();
    (bad.products[0] as Record<string, unknown>).updatedAt = '0001-01-01T00:00:00+01:00';
    (bad.stockLevels[0] as Record<string, unknown>).updatedAt = '9999-12-31T23:59:59-00:01';
    expect(await problemsOf(bad)).toEqual([
      'products[0].updatedAt: must be in the years 0001 to 9999 once converted to UTC, got "0001-01-01T00:00:00+01:00"',
      'stockLevels[0].updatedAt: must be in the years 0001 to 9999 once converted to UTC, got "9999-12-31T23:59:59-00:01"',
    ]);
    expect(await counts()).toEqual(before);

    const product: Record<string, unknown> = {
      ...(testDataset().products[0] as Record<string, unknown>),
      updatedAt: '2026-10-03T05:30:00.123+20:00',
    };
    await importDataset(db, { products: [product] }, { replace: false });
    const [row] = await db.query(`SELECT updated_at FROM products WHERE id = $1`, [product.id]);
    expect((row.updated_at as Date).toISOString()).toBe('2026-10-02T09:30:00.123Z');
    await importDataset(db, { products: [testDataset().products[0]] }, { replace: false });
  });

  it('refuses ids that belong to another tenant and keys issued twice', async () => {
    const intruder = {
      tenants: [{ id: 'ten_c', name: 'C', currency: 'USD' }],
      stores: [{ id: 'sto_a1', tenantId: 'ten_c', name: 'Hijack' }],
      apiClients: [
        {
          id: 'cli_c',
          tenantId: 'ten_c',
          name: 'C',
          status: 'ACTIVE',
          scopes: [],
          allowedStoreIds: null,
          rateLimitPerMinute: null,
          keys: [
            { id: 'key_c', key: 'ck_test_TenantAllScopesKey00000000000000000001', expiresAt: null, revokedAt: null },
          ],
        },
      ],
    };
    const problems = await problemsOf(intruder);
    expect(problems).toEqual(
      expect.arrayContaining([
        'stores[0].id: "sto_a1" already exists in another tenant',
        'apiClients[0].keys[0].key: this key is already issued under another key id',
      ]),
    );
    expect(Number((await db.query(`SELECT count(*) AS n FROM tenants WHERE id = 'ten_c'`))[0].n)).toBe(0);

    // A movement id of tenant A, sent with a product of tenant B (already in the database).
    const moved = {
      stockMovements: [
        {
          id: 'mov_a_1',
          productId: 'prd_b1_cola',
          kind: 'SALE',
          quantityDelta: '-1',
          reason: 'x',
          staffId: null,
          occurredAt: '2026-10-01T00:00:00.000Z',
        },
      ],
    };
    expect(await problemsOf(moved)).toEqual(['stockMovements[0].id: "mov_a_1" already exists in another tenant']);
    expect((await db.query(`SELECT tenant_id, product_id FROM stock_movements WHERE id = 'mov_a_1'`))[0]).toEqual({
      tenant_id: 'ten_a',
      product_id: 'prd_a1_cola',
    });
  });

  it('upserts by id by default and --replace rewrites only the tenants named in the file', async () => {
    const update = {
      products: [{ ...(testDataset().products[0] as Record<string, unknown>), name: 'Cola Zero-Sugar 330ml' }],
    };
    expect((await cli([file('update.json', update)])).code).toBe(0);
    expect((await db.query(`SELECT name FROM products WHERE id = 'prd_a1_cola'`))[0].name).toBe(
      'Cola Zero-Sugar 330ml',
    );
    const before = await counts();

    const onlyB = testDataset();
    const keep = <T extends { id?: string; tenantId?: string; storeId?: string; productId?: string }>(
      rows: unknown[],
    ): T[] =>
      (rows as T[]).filter((r) =>
        [r.id, r.tenantId, r.storeId, r.productId].some((v) => typeof v === 'string' && /(_b_|_b1|ten_b)/.test(v)),
      );
    const replaceB = {
      tenants: keep(onlyB.tenants),
      stores: keep(onlyB.stores),
      vatRates: keep(onlyB.vatRates),
      categories: keep(onlyB.categories),
      products: keep(onlyB.products),
      apiClients: keep(onlyB.apiClients),
    };
    const res = await cli([file('b.json', replaceB), '--replace']);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('replaced tenants: ten_b');
    const after = await counts();
    expect(after.stock_levels).toBe(before.stock_levels - 1);
    expect(after.products).toBe(before.products);
    expect((await db.query(`SELECT count(*) AS n FROM stock_levels WHERE tenant_id = 'ten_b'`))[0].n).toBe('0');
    expect((await db.query(`SELECT name FROM products WHERE id = 'prd_a1_cola'`))[0].name).toBe(
      'Cola Zero-Sugar 330ml',
    );
  });

  it('--replace of a tenant the file refers to without listing it keeps the tenant and replaces what it owns', async () => {
    const tenantB = (await db.query(`SELECT name, currency FROM tenants WHERE id = 'ten_b'`))[0];
    const aBefore = Number((await db.query(`SELECT count(*) AS n FROM products WHERE tenant_id = 'ten_a'`))[0].n);
    const res = await cli([
      file('b-store.json', { stores: [{ id: 'sto_b_new', tenantId: 'ten_b', name: 'B New' }] }),
      '--replace',
    ]);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('replaced tenants: ten_b');
    expect((await db.query(`SELECT name, currency FROM tenants WHERE id = 'ten_b'`))[0]).toEqual(tenantB);
    expect(
      (await db.query(`SELECT id FROM stores WHERE tenant_id = 'ten_b'`)).map((r: { id: string }) => r.id),
    ).toEqual(['sto_b_new']);
    expect(Number((await db.query(`SELECT count(*) AS n FROM products WHERE tenant_id = 'ten_b'`))[0].n)).toBe(0);
    expect(Number((await db.query(`SELECT count(*) AS n FROM products WHERE tenant_id = 'ten_a'`))[0].n)).toBe(aBefore);
  });

  it('without DATABASE_URL loads into the embedded database of npm start, which keeps it', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: testTempDir('import-embedded') };
    delete env.DATABASE_URL;
    const extra = { stores: [{ id: 'sto_cs_extra', tenantId: 'ten_cornershop', name: 'Extra' }] };
    const first = await run(process.execPath, ['dist/tools/cli/db-import.js', file('extra.json', extra)], { env });
    expect(first.stdout).toContain('Imported');
    const listed = await run(process.execPath, ['dist/tools/cli/admin.js', 'clients:list', '--json'], { env });
    expect(JSON.parse(listed.stdout).length).toBeGreaterThan(0);
    const again = await run(process.execPath, ['dist/tools/cli/db-import.js', file('extra.json', extra)], { env });
    expect(again.stdout).toMatch(/Imported .*: 1 store\.$/m);
  });

  it('says clearly what is wrong with the command line, the file or the JSON', async () => {
    const missing = await cli([join(dir, 'nope.json')]);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/Cannot read .*nope.json: ENOENT/);
    const notJson = await cli([file('broken.json', '{"tenants": [')]);
    expect(notJson.code).not.toBe(0);
    expect(notJson.stderr).toMatch(/is not valid JSON/);
    const noFile = await cli([]);
    expect(noFile.code).not.toBe(0);
    expect(noFile.stderr).toMatch(/Usage: npm run db:import/);
    const badFlag = await cli([file('x.json', {}), '--replce']);
    expect(badFlag.code).not.toBe(0);
    expect(badFlag.stderr).toMatch(/Unknown option: --replce/);
    const notObject = await cli([file('array.json', [])]);
    expect(notObject.stderr).toMatch(/\$: the data set must be a JSON object/);
  });
});

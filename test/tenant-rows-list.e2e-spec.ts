import type { ApiCaller } from '../src/auth/api-caller.js';
import { decimal, id, text } from '../src/lists/json-columns.js';
import { defineList, equals, filtersOf, queryOf, rowOf } from '../src/lists/list-definition.js';
import { fixedStatement } from '../src/database/statement.js';
import { ListEngine, type ListQuery } from '../src/lists/list-engine.js';
import { type ListRead, ListStatements } from '../src/lists/list-statements.js';
import { tenantTables } from '../src/schema/tenant-tables.js';
import type { DataScope } from '../src/tenancy/data-scope.js';
import { ScopedReader } from '../src/tenancy/scoped-reader.js';
import { testDataset } from './support/dataset.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * A list whose own table holds rows of the whole tenant (`@TenantRows({ store: null })`): no list of
 * the service is one today, but the engine takes any table the schema declares. A key limited to
 * stores reads the tenant's rows, as a key of every store does: the rows belong to no store, so the
 * limit does not narrow them (as the VAT rate a product row reads). The statements bind no store
 * parameter they do not use (PostgreSQL refuses a bound parameter the text does not read: a 500).
 */
interface VatRatesQuery extends ListQuery {
  readonly code?: string;
}
interface VatRateRow {
  readonly id: string;
  readonly code: string;
  readonly percentage: string;
}

// Defined here only: a list registers itself by name, and no test but this one reads this file's.
const VAT_RATES = defineList(queryOf<VatRatesQuery>(), rowOf<VatRateRow>(), {
  name: 'test_vat_rates',
  from: { table: 'vat_rates', alias: 'v' },
  key: 'v.id',
  filters: filtersOf<VatRatesQuery>()({ code: equals('v.code') }),
  row: { joins: [], columns: { id: id('v.id'), code: text('v.code'), percentage: decimal('v.percentage') } },
  sync: { marker: 'change_xact', inputs: [], removalId: 'id' },
  examples: [],
});

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ dataset: testDataset() });
});
afterAll(async () => t.close());

const engine = () => t.app.get(ListEngine);
const caller = (clientId: string, allowedStoreIds: string[] | null): ApiCaller => ({
  clientId,
  keyId: `key_${clientId}`,
  tenantId: 'ten_a',
  scopes: new Set(),
  allowedStoreIds,
  rateLimitPerMinute: null,
  deadlineMs: Date.now() + 60_000,
});
const KEYS = {
  'every store': caller('cli_a_all', null),
  'one store': caller('cli_a_store1', ['sto_a1']),
  'a list of stores': caller('cli_a_all', ['sto_a1', 'sto_a2']),
};
const TENANT_A = [
  { id: 'vat_a_red', code: 'R', percentage: '5.50' },
  { id: 'vat_a_std', code: 'S', percentage: '20.00' },
];
const rowsOf = (body: string): unknown => JSON.parse(body).rows;

it('reads a table without a store column (vat_rates)', () => {
  expect(tenantTables().get('vat_rates')).toEqual({ store: null });
});

describe.each(Object.entries(KEYS))('a list of rows of the whole tenant, for a key of %s', (_name, key) => {
  it("answers a page of the tenant's rows, with and without a filter", async () => {
    const page = await engine().page(VAT_RATES, key, { page: 1, pageSize: 50 });
    expect(rowsOf(page.body)).toEqual(TENANT_A);
    const filtered = await engine().page(VAT_RATES, key, { page: 1, pageSize: 50, code: 'S' });
    expect(rowsOf(filtered.body)).toEqual([TENANT_A[1]]);
  });

  it('answers a sync walk, page by cursor, and an incremental round', async () => {
    const first = await engine().page(VAT_RATES, key, { pageSize: 1 });
    expect(rowsOf(first.body)).toEqual([TENANT_A[0]]);
    expect(first.syncPosition).not.toBeNull();
    const second = await engine().page(VAT_RATES, key, { pageSize: 1, cursor: first.nextCursor! });
    expect(rowsOf(second.body)).toEqual([TENANT_A[1]]);
    await t.db.query(`UPDATE vat_rates SET name = name || ' ' WHERE id = 'vat_a_std'`);
    const round = await engine().page(VAT_RATES, key, { pageSize: 50, changedSince: first.syncPosition! });
    expect(rowsOf(round.body)).toEqual([TENANT_A[1]]);
  });

  it('answers one row by id, and the list read whole', async () => {
    expect(JSON.parse(await engine().one(VAT_RATES, key, 'vat_a_std'))).toEqual(TENANT_A[1]);
    const scope = {
      tenantId: 'ten_a',
      storeIds: key.allowedStoreIds,
      clientId: key.clientId,
      deadlineMs: Date.now() + 60_000,
    } as unknown as DataScope;
    const whole = await engine().all(VAT_RATES, scope, {});
    expect(whole.map((row) => JSON.parse(row))).toEqual(TENANT_A);
  });
});

describe('the statements of rows of the whole tenant, in a scope of stores', () => {
  const scope = (storeIds: string[]): DataScope =>
    ({ tenantId: 'ten_a', storeIds, clientId: 'cli_a_all', deadlineMs: Date.now() + 60_000 }) as unknown as DataScope;

  it('bind the tenant and the filters, no stores', () => {
    const read: ListRead = {
      scope: scope(['sto_a1']),
      filters: { code: 'S' },
      window: { pageSize: 10, offset: 0 },
      sync: {},
    };
    const page = new ListStatements(VAT_RATES).page(read);
    expect(page.values(read)).toEqual(['ten_a', 'S', 11, 0]);
    expect(page.text).toMatch(/v\.tenant_id = \$1\s+AND v\.code = \$2/);
  });

  it("still refuse a statement of a store's rows whose $2 is not the scope's stores", async () => {
    // The check of $2's value now depends on the text having store conditions: a text that has them
    // is held to it as before.
    const oneStore = scope(['sto_a1']);
    const otherStore = fixedStatement<{ scope: DataScope }>((sql) => {
      const tenant = sql.param((i) => i.scope.tenantId);
      const store = sql.param(() => 'sto_a2');
      return `SELECT p.id FROM products p WHERE p.tenant_id = ${tenant} AND p.store_id = ${store}`;
    });
    await expect(
      t.app.get(ScopedReader).read(oneStore, { cost: 'cheap' }, (db) => db.rows(otherStore, { scope: oneStore })),
    ).rejects.toThrow('another scope');
  });
});

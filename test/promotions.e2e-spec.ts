import { KEYS, testDataset } from './support/dataset.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { importDataset } from '../src/dataset/import-dataset.js';

/** Promotions for every status x window, built around the real clock. */
const DAY = 24 * 60 * 60 * 1000;
const now = Date.now();
const iso = (ms: number): string => new Date(ms).toISOString();
const WINDOWS: Record<string, [string | null, string | null]> = {
  past: [iso(now - 10 * DAY), iso(now - DAY)],
  current: [iso(now - DAY), iso(now + DAY)],
  future: [iso(now + DAY), iso(now + 10 * DAY)],
  openstart: [null, iso(now + DAY)],
  openend: [iso(now - DAY), null],
  open: [null, null],
  endedopen: [null, iso(now - DAY)],
  notyetopen: [iso(now + DAY), null],
};
const STATUSES = ['DRAFT', 'ACTIVE', 'PAUSED', 'ARCHIVED'];
const ALLOWED = ['PERCENT_OFF', 'AMOUNT_OFF', 'FIXED_PRICE', 'MULTI_BUY', 'BUY_X_GET_Y', 'BUNDLE', 'SPEND_AND_SAVE'];
const CURRENT_WINDOWS = ['current', 'openstart', 'openend', 'open'];

function promotionsDataset(): Record<string, unknown[]> {
  const promotions: Record<string, unknown>[] = [];
  let i = 0;
  for (const status of STATUSES) {
    for (const [window, [startsAt, endsAt]] of Object.entries(WINDOWS)) {
      promotions.push({
        id: `pro_${status.toLowerCase()}_${window}`,
        storeId: 'sto_a1',
        name: `${status} ${window}`,
        type: ALLOWED[i++ % ALLOWED.length],
        status,
        startsAt,
        endsAt,
        isSystemPreset: false,
        conditions: [],
        actions: [],
        builderConfig: null,
        createdByStaffId: null,
        updatedAt: '2026-10-01T00:00:00.000Z',
      });
    }
  }
  const base = {
    storeId: 'sto_a1',
    status: 'ACTIVE',
    startsAt: null,
    endsAt: null,
    conditions: [],
    actions: [],
    updatedAt: '2026-10-01T00:00:00.000Z',
  };
  for (const type of ['COUPON', 'STAFF_DISCOUNT', 'MANUAL_DISCOUNT', 'LOYALTY_POINTS']) {
    promotions.push({ ...base, id: `pro_hidden_${type.toLowerCase()}`, name: type, type });
  }
  promotions.push({ ...base, id: 'pro_hidden_preset', name: 'POS preset', type: 'AMOUNT_OFF', isSystemPreset: true });
  promotions.push({ ...base, id: 'pro_store2', storeId: 'sto_a2', name: 'Store two', type: 'PERCENT_OFF' });
  promotions.push({ ...base, id: 'pro_tenant_b', storeId: 'sto_b1', name: 'Tenant B', type: 'PERCENT_OFF' });
  promotions.push({
    ...base,
    id: 'pro_words',
    name: 'Every rule',
    type: 'BUNDLE',
    conditions: [
      { kind: 'product_quantity', minQuantity: 2, productIds: ['prd_a1_cola', 'prd_a1_diet'] },
      { kind: 'category_quantity', minQuantity: 1, categoryIds: ['cat_a1_desserts'] },
      { kind: 'basket_spend', minSpend: '15' },
      { kind: 'customer_group', group: 'LOYALTY_MEMBERS' },
      { kind: 'time_of_day', from: '16:00', to: '19:00' },
    ],
    actions: [
      { kind: 'percent_off', percent: '12.5', target: 'qualifying_items' },
      { kind: 'amount_off', amount: '1', target: 'basket' },
      { kind: 'fixed_price', price: '5' },
      { kind: 'free_items', quantity: 1, which: 'most_expensive' },
    ],
  });
  return { promotions };
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ dataset: testDataset() });
  const { importDataset } = await import('../src/dataset/import-dataset.js');
  await importDataset(t.db, promotionsDataset(), { replace: false });
});
afterAll(async () => t.close());

type Promo = {
  id: string;
  isActive: boolean;
  lifecycle: { status: string };
  schedule: { startsAt: string | null; endsAt: string | null };
};
const list = (query = '', key: string = KEYS.tenantA) => t.get(`/v1/catalog/promotions${query}`, key);
const ids = async (query: string, key: string = KEYS.tenantA): Promise<string[]> =>
  ((await list(query, key).expect(200)).body as Promo[]).map((p) => p.id);
const sorted = (values: string[]): string[] => [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

describe('GET /v1/catalog/promotions', () => {
  it('returns rows with the decided keys, in order, and never the raw rules', async () => {
    const [row] = (await list('?storeId=sto_a1&activeOnly=false&type=MULTI_BUY').expect(200)).body.filter(
      (p: Promo) => p.id === 'pro_a1_meal',
    );
    expect(row).toEqual({
      id: 'pro_a1_meal',
      storeId: 'sto_a1',
      name: '3 drinks for 3.00',
      type: 'MULTI_BUY',
      schedule: { startsAt: '2026-01-01T00:00:00.000Z', endsAt: null },
      lifecycle: { status: 'ACTIVE' },
      isActive: true,
      eligibilityDescription: 'Buy 3 or more from Soft drinks',
      discountDescription: 'The qualifying items together for GBP 3.00',
      updatedAt: '2026-10-01T00:00:00.000Z',
    });
    expect(Object.keys(row)).toEqual([
      'id',
      'storeId',
      'name',
      'type',
      'schedule',
      'lifecycle',
      'isActive',
      'eligibilityDescription',
      'discountDescription',
      'updatedAt',
    ]);
    expect(Object.keys(row.schedule)).toEqual(['startsAt', 'endsAt']);
    expect(Object.keys(row.lifecycle)).toEqual(['status']);
  });

  it('activeOnly=true (default): ACTIVE promotions whose window contains now, ordered by id', async () => {
    const expected = sorted([
      'pro_a1_meal',
      'pro_store2',
      'pro_words',
      ...CURRENT_WINDOWS.map((w) => `pro_active_${w}`),
    ]);
    expect(await ids('')).toEqual(expected);
    expect(await ids('?activeOnly=true')).toEqual(expected);
  });

  it('activeOnly=false: ACTIVE and PAUSED whatever the window; never DRAFT, ARCHIVED, presets or other types', async () => {
    const got = await ids('?activeOnly=false');
    const expected = sorted([
      'pro_a1_meal',
      'pro_store2',
      'pro_words',
      ...Object.keys(WINDOWS).flatMap((w) => [`pro_active_${w}`, `pro_paused_${w}`]),
    ]);
    expect(got).toEqual(expected);
    expect(got.filter((id) => /draft|archived|hidden|tenant_b/.test(id))).toEqual([]);
  });

  it('computes isActive from the real clock, independently of the filters', async () => {
    const rows = (await list('?activeOnly=false').expect(200)).body as Promo[];
    for (const row of rows) {
      const window = row.id.replace(/^pro_(active|paused)_/, '');
      const expected = row.lifecycle.status === 'ACTIVE' && (CURRENT_WINDOWS.includes(window) || !(window in WINDOWS));
      expect([row.id, row.isActive]).toEqual([row.id, expected]);
    }
    const future = (await list(`?activeAt=${encodeURIComponent(WINDOWS.future[0]!)}`).expect(200)).body as Promo[];
    expect(future.find((p) => p.id === 'pro_active_future')).toMatchObject({ isActive: false });
  });

  it('activeAt selects ACTIVE promotions whose window contains the instant, bounds inclusive, whatever activeOnly says', async () => {
    const [start, end] = WINDOWS.future as [string, string];
    const at = async (instant: string, extra = ''): Promise<string[]> =>
      (await ids(`?activeAt=${encodeURIComponent(instant)}${extra}`)).filter(
        (id) => id.startsWith('pro_active_') || id.startsWith('pro_paused_'),
      );
    const onStart = await at(start);
    expect(onStart).toContain('pro_active_future');
    expect(onStart).toContain('pro_active_notyetopen');
    expect(onStart).toContain('pro_active_current'); // current ends at now + 1 day, exactly this start: bounds are inclusive
    expect(await at(end)).toContain('pro_active_future');
    expect(await at(iso(Date.parse(start) - 1))).not.toContain('pro_active_future');
    expect(await at(iso(Date.parse(end) + 1))).not.toContain('pro_active_future');
    expect(await at(start, '&activeOnly=false')).toEqual(onStart);
    expect(onStart.some((id) => id.startsWith('pro_paused_'))).toBe(false);
    const past = await at(iso(now - 5 * DAY));
    expect(sorted(past)).toEqual(
      sorted(['pro_active_past', 'pro_active_open', 'pro_active_openstart', 'pro_active_endedopen']),
    );
  });

  it('an instant exactly on endsAt of one and startsAt of another includes both', async () => {
    const current = WINDOWS.current as [string, string];
    const got = await ids(`?activeAt=${encodeURIComponent(current[1])}`);
    expect(got).toEqual(expect.arrayContaining(['pro_active_current', 'pro_active_future', 'pro_active_openstart']));
  });

  it('activeAt with any RFC 3339 offset (PostgreSQL itself stops at ±15:59) and finer than milliseconds is compared exactly', async () => {
    const [start, end] = WINDOWS.future as [string, string];
    const shifted = (ms: number, offset: string): string => {
      const sign = offset.startsWith('-') ? -1 : 1;
      const local = new Date(
        ms + sign * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4))) * 60_000,
      ).toISOString();
      return local.replace('Z', offset);
    };
    for (const offset of ['+16:00', '-20:00', '+23:59']) {
      expect(await ids(`?activeAt=${encodeURIComponent(shifted(Date.parse(start), offset))}`)).toContain(
        'pro_active_future',
      );
    }
    // 0.1 microsecond before the start, and after the end: outside, though PostgreSQL would round both onto the bound.
    const before = iso(Date.parse(start) - 1).replace('Z', '9999Z');
    const after = end.replace('Z', '0001Z');
    expect(await ids(`?activeAt=${encodeURIComponent(before)}`)).not.toContain('pro_active_future');
    expect(await ids(`?activeAt=${encodeURIComponent(after)}`)).not.toContain('pro_active_future');
    expect(await ids(`?activeAt=${encodeURIComponent(end.replace('Z', '0000Z'))}`)).toContain('pro_active_future');
    await list(`?activeAt=${encodeURIComponent('0001-01-01T00:00:00+23:59')}`).expect(200);
  });

  it('type filters exactly within the allow-list; any other type gives []', async () => {
    for (const type of ALLOWED) {
      const rows = (await list(`?type=${type}&activeOnly=false`).expect(200)).body as { type: string }[];
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((r) => r.type === type)).toBe(true);
    }
    for (const type of ['COUPON', 'STAFF_DISCOUNT', 'MANUAL_DISCOUNT', 'LOYALTY_POINTS', 'percent_off', 'NOPE']) {
      expect((await list(`?type=${type}&activeOnly=false`).expect(200)).body).toEqual([]);
    }
  });

  it('writes both descriptions for every condition and action kind, with names and the tenant currency', async () => {
    const row = ((await list('?activeOnly=false').expect(200)).body as Record<string, string>[]).find(
      (p) => p.id === 'pro_words',
    )!;
    expect(row.eligibilityDescription).toBe(
      'Buy 2 or more of Cola 330ml can or Diet Cola 330ml can, buy 1 or more from Desserts, spend GBP 15.00 or more, ' +
        'for customers in the loyalty members group and between 16:00 and 19:00',
    );
    expect(row.discountDescription).toBe(
      '12.5% off the qualifying items, GBP 1.00 off the whole basket, the qualifying items ' +
        'together for GBP 5.00 and most expensive item free',
    );
    const empty = ((await list('?activeOnly=false').expect(200)).body as Record<string, string>[]).find(
      (p) => p.id === 'pro_active_open',
    )!;
    expect([empty.eligibilityDescription, empty.discountDescription]).toEqual(['Everyone qualifies', 'No discount']);
  });

  it('describes a promotion the same with and without storeId, naming only what the key may read', async () => {
    await importDataset(
      t.db,
      {
        promotions: [
          {
            id: 'pro_two_stores',
            storeId: 'sto_a2',
            name: 'Across stores',
            type: 'BUNDLE',
            status: 'ACTIVE',
            startsAt: null,
            endsAt: null,
            conditions: [{ kind: 'product_quantity', minQuantity: 1, productIds: ['prd_a2_cola', 'prd_a1_diet'] }],
            actions: [],
            updatedAt: '2026-10-01T00:00:00.000Z',
          },
        ],
      },
      { replace: false },
    );
    const find = async (query: string, key: string = KEYS.tenantA) =>
      ((await list(query, key).expect(200)).body as Record<string, string>[]).find((p) => p.id === 'pro_two_stores')
        ?.eligibilityDescription;
    try {
      expect(await find('')).toBe('Buy 1 or more of Cola 330ml can or Diet Cola 330ml can');
      expect(await find('?storeId=sto_a2')).toBe('Buy 1 or more of Cola 330ml can or Diet Cola 330ml can');
    } finally {
      await t.db.query(`DELETE FROM promotions WHERE id = 'pro_two_stores'`);
    }
  });

  it("scopes to the tenant and the key's stores; a foreign store is a 404", async () => {
    expect(await ids('?activeOnly=false', KEYS.tenantB)).toEqual(['pro_tenant_b']);
    expect((await ids('?activeOnly=false', KEYS.tenantAStore1)).includes('pro_store2')).toBe(false);
    expect(await ids('?storeId=sto_a2')).toEqual(['pro_store2']);
    await list('?storeId=sto_b1').expect(404);
    await list('?storeId=sto_a2', KEYS.tenantAStore1).expect(404);
    await list('?storeId=sto_nope&type=COUPON').expect(404);
  });

  it('validates activeAt, type and activeOnly', async () => {
    for (const query of [
      '?activeAt=2026-10-01',
      '?activeAt=2026-02-30T00:00:00Z',
      '?activeAt=now',
      '?activeOnly=TRUE',
      '?type=',
      `?type=${'A'.repeat(201)}`,
      '?type=%00',
    ]) {
      expect((await list(query).expect(400)).body.error.details.errors).toHaveLength(1);
    }
  });

  it('needs catalog.promotions.read', async () => {
    const res = await list('', KEYS.tenantAProductsOnly).expect(403);
    expect(res.body.error.details).toEqual({ requiredScopes: ['catalog.promotions.read'] });
  });
});

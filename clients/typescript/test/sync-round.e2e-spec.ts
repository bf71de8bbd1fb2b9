import { KEYS } from '../../../test/support/dataset.js';
import type { TestApp } from '../../../test/support/test-app.js';
import { type Client, createClient, IncompleteSyncError } from '../src/index.js';
import { listeningTestApp, recordingClient } from './support/service.js';

/**
 * What a sync round is: the recipe's changes walk (activeOnly=false, pageSize=100, changedSince after
 * the first round, Link next to the end), then on an incremental round the removals walk from the same
 * position, whose position (the changes walk's) can only be read once both walks reached their end.
 */
let t: TestApp;
let base: string;
let client: Client;
beforeAll(async () => {
  ({ t, base } = await listeningTestApp());
  client = createClient({ baseUrl: base, apiKey: KEYS.tenantA });
});
afterAll(async () => t.close());

async function walk<Row>(round: AsyncIterable<Row>): Promise<Row[]> {
  const rows: Row[] = [];
  for await (const row of round) rows.push(row);
  return rows;
}

it('the first round copies every product, inactive ones included, with the recipe’s requests', async () => {
  const { client: recording, exchanges } = recordingClient({ baseUrl: base, apiKey: KEYS.tenantA });
  const round = recording.sync.products();
  expect(round.full).toBe(true);
  const rows = await walk(round);
  const { total } = await client.products.listPage({ activeOnly: false, pageSize: 1 });
  expect(rows).toHaveLength(total);
  expect(rows.some((product) => !product.isActive)).toBe(true);
  expect(new URL(exchanges[0].url).search).toBe('?activeOnly=false&pageSize=100');
  expect(exchanges.length).toBe(Math.ceil(total / 100));
  expect(round.position).toMatch(/^sp_[\w-]{59}$/);
});

it('the next round returns only what changed since, a deactivated product included', async () => {
  const products = client.sync.products();
  const stock = client.sync.stock();
  await walk(products);
  await walk(stock);
  const nothing = client.sync.products(products.position);
  expect(await walk(nothing)).toEqual([]);
  expect(await walk(nothing.removals())).toEqual([]);
  expect(nothing.full).toBe(false);
  await t.db.query(`UPDATE products SET is_active = false WHERE id = 'prd_a1_cola'`);
  await t.db.query(`UPDATE stock_levels SET quantity = 3 WHERE product_id = 'prd_a1_diet'`);
  const changed = await walk(client.sync.products(nothing.position));
  expect(changed.map((product) => [product.id, product.isActive])).toEqual([['prd_a1_cola', false]]);
  const changedStock = await walk(client.sync.stock(stock.position));
  expect(changedStock.map((row) => [row.productId, row.quantity])).toEqual([
    ['prd_a1_cola', expect.any(String)],
    ['prd_a1_diet', '3.000'],
  ]);
  await t.db.query(`UPDATE products SET is_active = true WHERE id = 'prd_a1_cola'`);
});

it('a removal arrives in the copy: changes, then removals from the same position, then the changes walk’s position', async () => {
  const { client: recording, exchanges } = recordingClient({ baseUrl: base, apiKey: KEYS.tenantA });
  const copy = new Map<string, unknown>();
  const first = recording.sync.products();
  const since = await first.apply({ onRow: (p) => copy.set(p.id, p), onRemove: (r) => copy.delete(r.id) });
  expect(copy.has('prd_a1_bananas')).toBe(true);
  await t.db.query(`DELETE FROM products WHERE id = 'prd_a1_bananas'`);
  exchanges.length = 0;
  const round = recording.sync.products(since, { pageSize: 2 });
  const removed: string[] = [];
  const next = await round.apply({
    onRow: (p) => copy.set(p.id, p),
    onRemove: (r) => {
      removed.push(r.id);
      copy.delete(r.id);
    },
  });
  expect(removed).toEqual(['prd_a1_bananas']);
  expect(copy.has('prd_a1_bananas')).toBe(false);
  const urls = exchanges.map((e) => new URL(e.url));
  // Every page of the changes walk before the first of the removals walk, both from the same position.
  expect(urls.map((u) => u.pathname).filter((p, i, all) => p !== all[i - 1])).toEqual([
    '/v1/catalog/products',
    '/v1/catalog/product-removals',
  ]);
  expect(new Set(urls.map((u) => u.searchParams.get('changedSince')))).toEqual(new Set([since]));
  // The position kept is the changes walk's (the removals walk's repeats the one given).
  expect(next).toMatch(/^sp_/);
  expect(next).not.toBe(since);
  const full = await walk(client.sync.products());
  expect([...copy.keys()].sort()).toEqual(full.map((p) => p.id).sort());
});

it('a round of a store reads that store only', async () => {
  const rows = await walk(client.sync.stock(undefined, { storeId: 'sto_a2', pageSize: 2 }));
  expect(rows.length).toBeGreaterThan(2);
  expect(new Set(rows.map((row) => row.storeId))).toEqual(new Set(['sto_a2']));
});

describe('the position of a round', () => {
  it('cannot be read before the walk', () => {
    const round = client.sync.products();
    expect(() => round.position).toThrow(IncompleteSyncError);
    expect(round.complete).toBe(false);
  });

  it('cannot be read after a walk that stopped early (a break)', async () => {
    const round = client.sync.products(undefined, { pageSize: 5 });
    for await (const product of round) if (product) break;
    expect(round.complete).toBe(false);
    expect(() => round.position).toThrow(/did not walk to its end/);
  });

  it('cannot be read while the last page is being processed, only after it', async () => {
    const round = client.sync.products(undefined, { pageSize: 100 });
    const seenDuringWalk: boolean[] = [];
    for await (const page of round.pages()) seenDuringWalk.push(round.complete, page.nextCursor === null);
    expect(seenDuringWalk.filter((_v, i) => i % 2 === 0)).not.toContain(true);
    expect(seenDuringWalk.at(-1)).toBe(true);
    expect(round.complete).toBe(true);
    expect(round.position).toMatch(/^sp_/);
  });

  it('of an incremental round cannot be read before its removals are walked, which come after its changes', async () => {
    const first = client.sync.products();
    await walk(first);
    const round = client.sync.products(first.position);
    await expect(walk(round.removals())).rejects.toThrow(/changes to their end first/);
    await walk(round);
    expect(round.complete).toBe(false);
    expect(() => round.position).toThrow(/removals\(\) to its end/);
    await walk(round.removals());
    expect(round.position).toMatch(/^sp_/);
  });

  it('cannot be read after a walk that failed, and a round walks once', async () => {
    const round = client.sync.products('sp_not_a_position');
    await expect(walk(round)).rejects.toMatchObject({ code: 'validation_failed' });
    expect(() => round.position).toThrow(IncompleteSyncError);
    await expect(walk(round)).rejects.toThrow(/walks once/);
  });
});

import { readFileSync } from 'node:fs';
import { INTERNAL_VALUES, KEYS, testDataset } from './support/dataset.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * Redaction by construction, checked from the outside: every response of every route, for every
 * record, is searched for every internal value of the data set.
 */
const ROUTES = ['/v1/catalog/products', '/v1/catalog/categories', '/v1/catalog/promotions', '/v1/inventory/stock'];
const EXTRA_QUERIES = ['activeOnly=false', 'q=a', 'storeId=sto_camden', 'storeId=sto_a1'];

async function crawl(t: TestApp, key: string): Promise<string[]> {
  const bodies: string[] = [];
  const productIds = new Set<string>();
  for (const route of ROUTES) {
    for (const extra of ['', ...EXTRA_QUERIES]) {
      const paginated = route.endsWith('products') || route.endsWith('stock');
      for (let page = 1; page <= (paginated ? 5 : 1); page++) {
        const query = [paginated ? `page=${page}&pageSize=100` : '', extra].filter((s) => s !== '').join('&');
        const res = await t.get(`${route}${query ? `?${query}` : ''}`, key);
        bodies.push(res.text);
        if (res.status === 200 && route.endsWith('products')) for (const row of res.body.rows) productIds.add(row.id);
        if (res.status !== 200 || !paginated || res.body.rows.length < 100) break;
      }
    }
  }
  for (const id of productIds) bodies.push((await t.get(`/v1/catalog/products/${id}`, key)).text);
  return bodies;
}

function internalValuesOfDemo(): string[] {
  const demo = JSON.parse(readFileSync(new URL('../fixtures/demo.json', import.meta.url), 'utf8'));
  const values = new Set<string>();
  for (const s of demo.suppliers) values.add(s.name).add(s.id);
  for (const s of demo.staff) values.add(s.name).add(s.id);
  for (const m of demo.stockMovements) values.add(m.reason).add(m.id);
  for (const p of demo.products)
    values.add(p.supplierSku).add(`"${p.costPrice}"`).add(`"${p.unitCost}"`).add(`"${p.packCost}"`);
  for (const s of demo.stockLevels) for (const l of s.costLayers) values.add(`"${l.unitCost}"`);
  for (const p of demo.promotions) if (p.builderConfig) values.add(p.builderConfig.template);
  for (const c of demo.suppliers) if (c.contactEmail) values.add(c.contactEmail);
  values.delete(undefined as unknown as string);
  return [...values];
}

describe('redaction', () => {
  it('no internal value of the test data set appears in any response', async () => {
    const t = await createTestApp({ dataset: testDataset() });
    try {
      const bodies = [...(await crawl(t, KEYS.tenantA)), ...(await crawl(t, KEYS.tenantAStore1))];
      expect(bodies.length).toBeGreaterThan(20);
      expect(bodies.some((b) => b.includes('prd_a1_cola'))).toBe(true);
      const hits = INTERNAL_VALUES.flatMap((value) => bodies.filter((b) => b.includes(value)).map(() => value));
      expect(hits).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('no internal value of the demo data set appears in any response', async () => {
    const demo = JSON.parse(readFileSync(new URL('../fixtures/demo.json', import.meta.url), 'utf8'));
    const t = await createTestApp({ dataset: demo });
    try {
      const key = demo.apiClients.find((c: { id: string }) => c.id === 'cli_cs_erp').keys[0].key;
      const bodies = await crawl(t, key);
      expect(bodies.some((b) => b.includes('prd_camden_001'))).toBe(true);
      const values = internalValuesOfDemo();
      expect(values.length).toBeGreaterThan(50);
      const hits = values.filter((value) => bodies.some((b) => b.includes(value)));
      expect(hits).toEqual([]);
    } finally {
      await t.close();
    }
  });
});

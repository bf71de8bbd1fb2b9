import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { describeWhenAvailable } from './support/needs.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { DEMO_KEYS_HINT } from '../src/openapi/openapi-document.js';

/**
 * Swagger UI as a person uses it, in Debian's chromium driven by playwright-core (npm cannot download
 * a browser here; .ci/run installs chromium with apt-get when it is missing). It runs on the demo data
 * set, so that the sample values the document shows are values that find something.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = 'test/artifacts';
const missing = existsSync(CHROMIUM) ? null : `${CHROMIUM} is missing (install it with: apt-get install chromium)`;
const demo = JSON.parse(readFileSync(new URL('../fixtures/demo.json', import.meta.url), 'utf8'));
const DEMO_KEY = 'ck_test_DemoErpSyncKey0000000000000000000001';

/** A laptop screen, as the team meets the page. */
const SCREEN = { width: 1366, height: 900 };
/**
 * The most an expanded operation (the product list, the longest: 12 parameters, 8 responses) may take
 * at 1366 px wide. It measured 6,407 px when every response showed its headers and example in full
 * (7,115 px with the parameters' sample values), 2,644 px with them folded.
 */
const MAX_EXPANDED_HEIGHT = 3200;

describeWhenAvailable('Swagger UI in a real browser', missing, () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp({ dataset: demo });
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    mkdirSync(ARTIFACTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function openDocs(): Promise<{ page: Page; external: string[] }> {
    const page = await browser.newPage({ viewport: SCREEN });
    const external: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(base) && !request.url().startsWith('data:')) external.push(request.url());
    });
    await page.goto(`${base}/docs`);
    await page.locator('.opblock').first().waitFor();
    return { page, external };
  }

  it('shows operations and a link to the OpenAPI document on the first screen', async () => {
    const { page, external } = await openDocs();
    await page.screenshot({ path: `${ARTIFACTS}/docs-first-screen.png` });

    const first = await page.locator('.opblock-summary').first().boundingBox();
    expect(first).not.toBeNull();
    expect(first!.y + first!.height).toBeLessThanOrEqual(SCREEN.height);

    const link = page.locator('a[href$="openapi.json"]').first();
    await expect(link.isVisible()).resolves.toBe(true);
    const box = await link.boundingBox();
    expect(box!.y + box!.height).toBeLessThanOrEqual(SCREEN.height);
    const href = new URL((await link.getAttribute('href'))!, page.url()).toString();
    const res = await page.request.get(href);
    expect(res.status()).toBe(200);
    expect((await res.json()).paths['/v1/catalog/products']).toBeDefined();
    expect(external).toEqual([]);
  });

  it('shows sample values in an expanded operation, fills in no optional filter, and keeps it short', async () => {
    const { page } = await openDocs();
    const operation = page.locator('#operations-Catalog-listProducts');
    await operation.locator('.opblock-summary').click();
    await operation.locator('.parameters-container tr[data-param-name="storeId"]').waitFor();
    // tryItOutEnabled opens "Try it out" at once: the inputs are there and must start empty.
    const storeId = operation.locator('tr[data-param-name="storeId"] input');
    expect(await storeId.inputValue()).toBe('');
    expect(await storeId.getAttribute('placeholder')).toContain('sto_camden');
    for (const name of ['q', 'sku', 'barcode', 'categoryId', 'updatedSince']) {
      const input = operation.locator(`tr[data-param-name="${name}"] input`);
      expect(await input.inputValue()).toBe('');
      expect(await input.getAttribute('placeholder')).not.toBe(name);
    }
    await operation.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${ARTIFACTS}/docs-expanded-operation.png` });

    // Each response's headers are one line that unfolds into their table.
    const headers = operation.locator('tr.response[data-code="200"] details.folded > summary', { hasText: 'Headers:' });
    expect(await headers.textContent()).toBe(
      'Headers: X-Request-Id, RateLimit-Policy, RateLimit, Cache-Control, Content-Encoding, Vary, Link, Sync-Position',
    );
    await headers.click();
    await operation.locator('tr.response[data-code="200"] table.headers').waitFor();
    await headers.click();

    const height = (await operation.boundingBox())!.height;
    console.log(`expanded listProducts: ${Math.round(height)} px (bound ${MAX_EXPANDED_HEIGHT})`);
    await page.screenshot({ path: `${ARTIFACTS}/docs-expanded-operation-full.png`, fullPage: true });
    expect(height).toBeLessThanOrEqual(MAX_EXPANDED_HEIGHT);
  });

  /** Swagger UI authorized with the demo key, an operation (the product list) expanded with "Try it out" open. */
  async function productListTryItOut(
    operationId = 'Catalog-listProducts',
  ): Promise<{ page: Page; external: string[]; operation: Locator }> {
    const { page, external } = await openDocs();
    await page
      .getByRole('button', { name: /authorize/i })
      .first()
      .click();
    // A development server says where the demo keys are.
    expect(await page.locator('.modal-ux .demo-keys-hint').textContent()).toBe(DEMO_KEYS_HINT);
    expect(DEMO_KEYS_HINT).toContain(DEMO_KEY);
    await page.locator('.modal-ux input[type="text"], .modal-ux input:not([type])').first().fill(DEMO_KEY);
    await page.locator('.modal-ux button.modal-btn.auth.authorize').click();
    await page.locator('.modal-ux button.btn-done').click();

    const operation = page.locator(`#operations-${operationId}`);
    await operation.locator('.opblock-summary').click();
    const tryItOut = operation.locator('button.try-out__btn');
    if ((await tryItOut.textContent())?.match(/try it out/i)) await tryItOut.click(); // tryItOutEnabled opens it already
    return { page, external, operation };
  }

  /** Executes the operation; its live answer's status and body text. */
  async function execute(operation: Locator): Promise<{ status: string; body: string }> {
    await operation.getByRole('button', { name: /execute/i }).click();
    const status = operation.locator('.live-responses-table tr.response .response-col_status').first();
    await status.waitFor({ timeout: 15_000 });
    const body = await operation
      .locator('.live-responses-table tr.response .response-col_description pre.microlight')
      .first()
      .textContent();
    return { status: (await status.textContent())?.trim() ?? '', body: body ?? '' };
  }

  it('authorizes with a key, runs "Try it out" on the product list and gets a 200 with every row', async () => {
    const { page, external, operation } = await productListTryItOut();
    const { status, body } = await execute(operation);
    expect(status).toBe('200');
    const parsed = JSON.parse(body);
    // No sample value was sent as a filter: the page is the whole active catalogue of the key.
    const stores = demo.stores
      .filter((s: { tenantId: string }) => s.tenantId === 'ten_cornershop')
      .map((s: { id: string }) => s.id);
    const active = demo.products.filter(
      (p: { storeId: string; isActive: boolean }) => p.isActive && stores.includes(p.storeId),
    );
    expect(parsed.total).toBe(active.length);
    expect(parsed.rows.length).toBeGreaterThan(0);

    await operation.locator('.live-responses-table').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${ARTIFACTS}/docs-try-it-out.png`, fullPage: false });
    expect(external).toEqual([]);
  });

  it('runs "Try it out" on the store list: the stores the demo key may read', async () => {
    const { external, operation } = await productListTryItOut('Catalog-listStores');
    const { status, body } = await execute(operation);
    expect(status).toBe('200');
    const stores = demo.stores
      .filter((s: { tenantId: string }) => s.tenantId === 'ten_cornershop')
      .map((s: { id: string; name: string }) => ({ id: s.id, name: s.name }))
      .sort((a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : 1));
    expect(JSON.parse(body).rows).toEqual(stores);
    expect(external).toEqual([]);
  });

  it('follows a cursor pasted from a Link header: Execute answers the next page', async () => {
    const first = await fetch(`${base}/v1/catalog/products`, { headers: { Authorization: `Bearer ${DEMO_KEY}` } });
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get('link') ?? '')?.[1];
    expect(next).toBeDefined();
    const cursor = new URL(next!, base).searchParams.get('cursor')!;
    const firstIds = ((await first.json()) as { rows: { id: string }[] }).rows.map((row) => row.id);

    const { page, external, operation } = await productListTryItOut();
    await operation.locator('tr[data-param-name="cursor"] input').fill(cursor);
    const { status, body } = await execute(operation);
    await operation.locator('.live-responses-table').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${ARTIFACTS}/docs-cursor.png`, fullPage: false });
    // Before `page` lost its schema default, Swagger UI sent page=1 beside the cursor: a 400.
    expect({ status, body: status === '200' ? '' : body }).toEqual({ status: '200', body: '' });
    const parsed = JSON.parse(body) as { page: number; rows: { id: string }[] };
    expect(parsed.page).toBe(2);
    expect(parsed.rows.length).toBeGreaterThan(0);
    expect(parsed.rows.filter((row) => firstIds.includes(row.id))).toEqual([]);
    expect(parsed.rows[0].id > firstIds[firstIds.length - 1]).toBe(true);
    expect(external).toEqual([]);
  });
});

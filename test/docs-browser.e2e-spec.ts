import { existsSync, mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { KEYS, testDataset } from './support/dataset.js';
import { describeWhenAvailable } from './support/needs.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * Swagger UI as a person uses it, in Debian's chromium driven by playwright-core (npm cannot download
 * a browser here; .ci/run installs chromium with apt-get when it is missing).
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREENSHOT = 'test/artifacts/docs-try-it-out.png';
const missing = existsSync(CHROMIUM) ? null : `${CHROMIUM} is missing (install it with: apt-get install chromium)`;

describeWhenAvailable('Swagger UI in a real browser', missing, () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp({ dataset: testDataset() });
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
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('authorizes with a key, runs "Try it out" on the product list and gets a 200 with rows', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1600 } });
    const external: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(base) && !request.url().startsWith('data:')) external.push(request.url());
    });
    await page.goto(`${base}/docs`);
    await page
      .getByRole('button', { name: /authorize/i })
      .first()
      .click();
    await page.locator('.modal-ux input[type="text"], .modal-ux input:not([type])').first().fill(KEYS.tenantA);
    await page.locator('.modal-ux button.modal-btn.auth.authorize').click();
    await page.locator('.modal-ux button.btn-done').click();

    const operation = page.locator('#operations-Catalog-listProducts');
    await operation.locator('.opblock-summary').click();
    const tryItOut = operation.locator('button.try-out__btn');
    if ((await tryItOut.textContent())?.match(/try it out/i)) await tryItOut.click(); // tryItOutEnabled opens it already
    await operation.getByRole('button', { name: /execute/i }).click();
    const status = operation.locator('.live-responses-table tr.response .response-col_status').first();
    await status.waitFor({ timeout: 15_000 });
    expect((await status.textContent())?.trim()).toBe('200');
    const body = await operation
      .locator('.live-responses-table tr.response .response-col_description pre.microlight')
      .first()
      .textContent();
    const parsed = JSON.parse(body ?? '{}');
    expect(parsed.rows.length).toBeGreaterThan(0);
    expect(parsed.total).toBeGreaterThan(0);

    mkdirSync('test/artifacts', { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: false });
    expect(existsSync(SCREENSHOT)).toBe(true);
    expect(external).toEqual([]);
  });
});

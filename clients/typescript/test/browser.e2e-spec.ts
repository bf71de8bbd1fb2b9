import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, normalize } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { KEYS } from '../../../test/support/dataset.js';
import { describeWhenAvailable } from '../../../test/support/needs.js';
import type { TestApp } from '../../../test/support/test-app.js';
import { listeningTestApp, raw } from './support/service.js';

/**
 * The built package in a real browser (Debian's chromium, driven by playwright-core): a page of
 * another origin (a static server of the test's own) imports dist/index.js and, through CORS (CORS_ORIGINS lists the page's origin, and
 * the service exposes Link, Sync-Position and the rate-limit headers), walks a list, runs a sync round
 * and catches a typed error, with the browser's own fetch.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const missing = existsSync(CHROMIUM) ? null : `${CHROMIUM} is missing (install it with: apt-get install chromium)`;
const DIST = join('clients', 'typescript', 'dist');

/** An empty page at / and the built package under /client/. */
function staticServer(): Server {
  return createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/')
      return void res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>client</title>');
    const file = normalize(join(DIST, path.replace(/^\/client\//, '')));
    if (!path.startsWith('/client/') || !file.startsWith(DIST) || !existsSync(file))
      return void res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(readFileSync(file));
  });
}

describeWhenAvailable('the client in a browser', missing, () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let pages: Server;
  let pageOrigin: string;
  beforeAll(async () => {
    pages = staticServer();
    await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
    pageOrigin = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
    ({ t, base } = await listeningTestApp({ CORS_ORIGINS: pageOrigin }));
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await new Promise((resolve) => pages?.close(resolve));
  });

  it('walks a list, runs a sync round and catches an ApiError from another origin', async () => {
    const page = await browser.newPage();
    await page.goto(`${pageOrigin}/`);
    const result = await page.evaluate(
      async ({ base, key }) => {
        const moduleUrl = '/client/index.js';
        const { createClient, isApiError } = await import(moduleUrl);
        const client = createClient({ baseUrl: base, apiKey: key });
        const ids: string[] = [];
        for await (const product of client.products.list({ pageSize: 4, activeOnly: false })) ids.push(product.id);
        const round = client.sync.stock();
        let rows = 0;
        for await (const _row of round) rows++;
        const error = await client.products.get('prd_nowhere').catch((e: unknown) => e);
        return {
          ids,
          rows,
          position: round.position as string,
          notFound: isApiError(error, 'not_found') as boolean,
          requestId: (error as { requestId: string }).requestId,
        };
      },
      { base, key: KEYS.tenantA },
    );
    const expected = await raw(base, '/v1/catalog/products?activeOnly=false&pageSize=100', KEYS.tenantA);
    const stock = await raw(base, '/v1/inventory/stock?activeOnly=false&pageSize=1', KEYS.tenantA);
    expect(result.ids).toHaveLength(expected.body.total);
    expect(result.ids.slice(0, 100)).toEqual(expected.body.rows.map((row: { id: string }) => row.id));
    expect(new Set(result.ids).size).toBe(result.ids.length);
    expect(result.rows).toBe(stock.body.total);
    expect(result.position).toMatch(/^sp_[\w-]{59}$/);
    expect(result.notFound).toBe(true);
    expect(result.requestId).toMatch(/^req_/);
  }, 60_000);
});

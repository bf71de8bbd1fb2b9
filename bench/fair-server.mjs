// The fair baseline: plain node:http + pg doing exactly the work the service does for an answer, with
// no framework. It runs the service's own code below the framework (built, from dist/): the same key
// check (ApiKeyService over ApiKeysRepository, with its cache), the same store check, the same list
// engine and repositories (so the same statements, built once per shape and prepared), the same
// cursors and positions and the same response bytes. It leaves out what the framework and the service's policies add: routing,
// middleware (request id, logs, metrics, rate limit, hardening), guards, parameter validation (the
// benchmark sends valid parameters only), and the request deadlines and read lanes of SqlReader.
// bench/run.mjs checks before measuring that both answer every scenario with the same body.
import { createServer } from 'node:http';
import pg from 'pg';
import { ApiKeyService } from '../dist/auth/api-key.service.js';
import { ApiKeysRepository } from '../dist/auth/api-keys.repository.js';
import { CategoriesRepository } from '../dist/catalog/categories/categories.repository.js';
import { CategoriesService } from '../dist/catalog/categories/categories.service.js';
import { PRODUCT_LIST } from '../dist/catalog/products/products.list.js';
import { PromotionsRepository } from '../dist/catalog/promotions/promotions.repository.js';
import { PromotionsService } from '../dist/catalog/promotions/promotions.service.js';
import { loadConfig } from '../dist/config/app-config.js';
import { ServiceSecrets } from '../dist/database/service-secrets.js';
import { STOCK_LIST } from '../dist/inventory/stock/stock.list.js';
import { CursorCodec } from '../dist/lists/cursor.js';
import { ListEngine } from '../dist/lists/list-engine.js';
import { sendListPage } from '../dist/lists/page-headers.js';
import { SyncPositions } from '../dist/lists/sync-position.js';
import { DataScopeService } from '../dist/tenancy/data-scope.js';
import { ScopedReader } from '../dist/tenancy/scoped-reader.js';
import { StoresRepository } from '../dist/tenancy/stores.repository.js';
import { parseRfc3339DateTime } from '../dist/values/formats.js';

const config = loadConfig(process.env);
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: config.dbPoolSize });

/** SqlReader's interface on one pool, without its deadlines and lanes. */
const reader = {
  async read(_deadlineMs, _options, work) {
    const client = await pool.connect();
    try {
      return await work({
        rows: async (statement, values) =>
          (await client.query({ text: statement.text, name: statement.name, values })).rows,
      });
    } finally {
      client.release();
    }
  },
};
const scoped = new ScopedReader(reader);
const keys = new ApiKeyService(new ApiKeysRepository(reader), config);
const scopes = new DataScopeService(new StoresRepository(reader));
const secrets = new ServiceSecrets(reader);
const lists = new ListEngine(new CursorCodec(secrets), new SyncPositions(secrets), scopes, scoped);
const categories = new CategoriesService(scopes, new CategoriesRepository(scoped));
const promotions = new PromotionsService(scopes, new PromotionsRepository(scoped));

/** The query as the DTOs would give it (valid parameters only: no validation). */
function query(params) {
  const text = (name) => params.get(name) ?? undefined;
  const bool = (name, fallback) => (params.has(name) ? params.get(name) === 'true' : fallback);
  const int = (name, fallback) => (params.has(name) ? Number(params.get(name)) : fallback);
  const instant = (name) => (params.has(name) ? parseRfc3339DateTime(params.get(name)) : undefined);
  return {
    page: int('page', undefined),
    pageSize: int('pageSize', 50),
    cursor: text('cursor'),
    changedSince: text('changedSince'),
    storeId: text('storeId'),
    categoryId: text('categoryId'),
    productId: text('productId'),
    parentCategoryId: text('parentCategoryId'),
    q: text('q'),
    sku: text('sku'),
    barcode: text('barcode'),
    type: text('type'),
    sortBy: text('sortBy') ?? 'sortOrder',
    updatedSince: instant('updatedSince'),
    activeAt: instant('activeAt'),
    lowStockOnly: params.has('lowStockOnly') ? params.get('lowStockOnly') === 'true' : undefined,
    activeOnly: bool('activeOnly', true),
  };
}

const LIVE = JSON.stringify({ status: 'ok', info: {}, error: {}, details: {} });

function send(res, status, body) {
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

async function answer(req, res) {
  const url = new URL(req.url, 'http://fair');
  if (url.pathname === '/health/live' || url.pathname === '/health/ready') return send(res, 200, LIVE);
  const key = /^bearer (\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
  const caller = key === undefined ? null : await keys.authenticate(key);
  if (caller === null) return send(res, 401, '{"error":{"code":"unauthorized"}}');
  const q = query(url.searchParams);
  const path = url.pathname;
  const list = path === '/v1/catalog/products' ? PRODUCT_LIST : path === '/v1/inventory/stock' ? STOCK_LIST : null;
  if (list !== null) {
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    return sendListPage({ originalUrl: req.url }, res, await lists.page(list, caller, q));
  }
  if (path === '/v1/catalog/categories') return send(res, 200, await categories.list(caller, q));
  if (path === '/v1/catalog/promotions') return send(res, 200, JSON.stringify(await promotions.list(caller, q)));
  const id = /^\/v1\/catalog\/products\/([^/]+)$/.exec(path)?.[1];
  if (id !== undefined) {
    try {
      return send(res, 200, await lists.one(PRODUCT_LIST, caller, decodeURIComponent(id)));
    } catch {
      return send(res, 404, '{"error":{"code":"not_found"}}');
    }
  }
  send(res, 404, '{"error":{"code":"not_found"}}');
}

createServer((req, res) => {
  answer(req, res).catch((error) => {
    console.error(error);
    if (!res.headersSent) send(res, 500, '{"error":{"code":"internal_error"}}');
  });
}).listen(Number(process.env.PORT ?? 3001), '127.0.0.1');

// Exit on a signal through process.exit, so that --cpu-prof can write its profile.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(0));

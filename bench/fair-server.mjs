// The fair baseline: plain node:http + pg doing the work of an answer the cheapest known way, with no
// framework, so that what the service spends above it shows. Lists and one product by id are its own
// statements: the same filters and indexes as the service (ids first, then the page's rows), but
// plain columns, read as text in array mode and mapped to the same bytes in Node by one template per
// row (no row_to_json, no to_char, no object per row). Keys, stores, cursors and categories and
// promotions use the service's own code from dist/ (the same key cache, the same cursor tokens,
// which the cursor scenario needs). It leaves out what the framework and the service's policies add:
// routing, middleware (request id, logs, metrics, rate limit, hardening), guards, parameter
// validation (the benchmark sends valid parameters only), request deadlines, read lanes and the sync
// bookkeeping (it hands out no Sync-Position). With FAIR_GZIP_LEVEL / FAIR_BROTLI_QUALITY it
// compresses as asked by Accept-Encoding (node zlib, br preferred, bodies from
// FAIR_COMPRESSION_THRESHOLD bytes). bench/run.mjs checks before measuring that both answer every
// scenario with the same body.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import pg from 'pg';
import { ApiKeyService } from '../dist/auth/api-key.service.js';
import { ApiKeysRepository } from '../dist/auth/api-keys.repository.js';
import { CategoriesService } from '../dist/catalog/categories/categories.service.js';
import { PromotionsService } from '../dist/catalog/promotions/promotions.service.js';
import { loadConfig } from '../dist/config/app-config.js';
import { ServiceSecrets } from '../dist/database/service-secrets.js';
import { CursorCodec } from '../dist/lists/cursor.js';
import { ListEngine } from '../dist/lists/list-engine.js';
import { SyncPositions } from '../dist/lists/sync-position.js';
import { pageBody } from '../dist/lists/page.js';
import { DataScopeService } from '../dist/tenancy/data-scope.js';
import { ScopedReader } from '../dist/tenancy/scoped-reader.js';
import { StoresRepository } from '../dist/tenancy/stores.repository.js';
import { escapeLike, searchTerms } from '../dist/values/like-pattern.js';
import { parseRfc3339DateTime, toPostgresTimestamp } from '../dist/values/formats.js';

const config = loadConfig(process.env);
// Connections kept, as the service keeps them.
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: config.dbPoolSize, idleTimeoutMillis: 0 });
const RAW = { rowMode: 'array', types: { getTypeParser: () => (value) => value } };

/** SqlReader's interface on one pool, without its deadlines and lanes. */
const reader = {
  async read(_deadlineMs, _options, work) {
    const client = await pool.connect();
    try {
      return await work({
        rows: async (statement, values) =>
          (await client.query({ text: statement.text, name: statement.name, values, ...(statement.raw ? RAW : {}) }))
            .rows,
        tuples: async (statement, values) =>
          (await client.query({ text: statement.text, name: statement.name, values, rowMode: 'array' })).rows,
      });
    } finally {
      client.release();
    }
  },
};
const scoped = new ScopedReader(reader);
const keys = new ApiKeyService(new ApiKeysRepository(reader), config);
const scopes = new DataScopeService(new StoresRepository(reader));
const cursors = new CursorCodec(new ServiceSecrets(reader));
// Categories and promotions are list declarations the service's engine reads whole.
const lists = new ListEngine(cursors, new SyncPositions(new ServiceSecrets(reader)), scopes, scoped);
const categories = new CategoriesService(scopes, lists);
const promotions = new PromotionsService(scopes, lists);

async function sql(text, values, prepare) {
  const name = prepare ? `fair_${text.length}_${hash(text)}` : undefined;
  return (await pool.query({ text, values, name, ...RAW })).rows;
}
function hash(text) {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (h * 31 + text.charCodeAt(i)) | 0;
  return (h >>> 0).toString(36);
}

// --- Row templates: PostgreSQL's text of each column to the contract's JSON --------------------------
const s = (v) => (v === null ? 'null' : JSON.stringify(v));
const d = (v) => (v === null ? 'null' : `"${v}"`);
const b = (v) => (v === null ? 'null' : v === 't' ? 'true' : 'false');
const t = (v) => {
  // A UTC timestamp's text (DateStyle ISO): `2026-10-01 08:00:00.5` → `"2026-10-01T08:00:00.500Z"`.
  if (v === null || v === 'infinity' || v === '-infinity') return 'null';
  const dot = v.indexOf('.', 11);
  const whole = dot === -1 ? v : v.slice(0, dot);
  const ms = dot === -1 ? '000' : (v.slice(dot + 1, dot + 4) + '00').slice(0, 3);
  return `"${whole.replace(' ', 'T').replace(/ BC$/, '')}.${ms}Z"`;
};
/**
 * The product's row from the committed contract (openapi.json, which a test keeps what the code
 * generates): its keys in order and each one's type, so that a new column of the contract needs no
 * edit here. Each key is read from the products column of its name in snake case (`p.store_id` for
 * `storeId`), an object from the table its join names (`v`, vat_rates, for `vatRate`: null when its
 * id is), and written by the writer of its type; a type without one stops the server. The template is
 * compiled once to the unrolled concatenation a hand-written one would be. The bytes stay compared
 * with the service's (bench/run.mjs, before measuring): its SQL, its writers and its joins are its own.
 */
function productRow() {
  const { schemas } = JSON.parse(readFileSync(new URL('../openapi.json', import.meta.url), 'utf8')).components;
  const JOINED = { vatRate: 'v' };
  const DECIMAL = '^-?[0-9]+\\.[0-9]{2}$';
  const snake = (key) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  const columns = [];
  const pieces = (schema, alias, object) =>
    Object.entries(schema.properties).map(([key, property], n) => {
      const name = JSON.stringify(`${n === 0 ? '{' : ','}"${key}":`);
      const ref = property.$ref === undefined ? undefined : schemas[property.$ref.split('/').pop()];
      if (ref?.type === 'object') {
        const at = columns.length;
        const inner = pieces(ref, JOINED[key], key).join(' + ');
        return `${name} + (r[${at}] === null ? 'null' : ${inner} + '}')`;
      }
      const type = ref ?? property;
      const column = `${alias}.${snake(key)}`;
      const write =
        type.enum !== undefined
          ? 's'
          : type.type === 'boolean'
            ? 'b'
            : type.type !== 'string'
              ? undefined
              : type.format === 'date-time'
                ? 't'
                : type.pattern === DECIMAL
                  ? 'd'
                  : 's';
      if (write === undefined) throw new Error(`fair server: no writer for ${object}.${key} (${JSON.stringify(type)})`);
      columns.push(write === 't' ? `${column} AT TIME ZONE 'UTC'` : column);
      return `${name} + ${write}(r[${columns.length - 1}])`;
    });
  const body = pieces(schemas.Product, 'p', 'Product').join(' + ');
  const write = new Function('s', 'd', 'b', 't', `return (r) => ${body} + '}';`)(s, d, b, t);
  return { columns: columns.join(', '), write };
}
const { columns: PRODUCT_COLUMNS, write: product } = productRow();
const STOCK_COLUMNS = `p.id, p.store_id, p.sku, p.barcode, p.name, s.track_stock, s.quantity, s.low_stock_threshold,
  s.reorder_level, GREATEST(p.updated_at, s.updated_at) AT TIME ZONE 'UTC'`;
const stock = (r) => {
  const track = r[5] === 't';
  const q = r[6] === null ? 0 : Number(r[6]);
  // The contract's availability rule, with numeric comparisons on the quantities' text.
  const availability = !track ? 'not_tracked' : q <= 0 ? 'out_of_stock' : q <= Number(r[8]) ? 'low_stock' : 'in_stock';
  return (
    `{"productId":${s(r[0])},"storeId":${s(r[1])},"sku":${s(r[2])},"barcode":${s(r[3])},"productName":${s(r[4])},` +
    `"trackStock":${track},"quantity":"${r[6] ?? '0.000'}","lowStockThreshold":"${r[7] ?? '0.000'}",` +
    `"reorderLevel":"${r[8] ?? '0.000'}","availability":"${availability}","updatedAt":${t(r[9])}}`
  );
};

// --- Lists ----------------------------------------------------------------------------------------------
const LOW_STOCK = '(s.track_stock AND s.quantity > 0 AND s.quantity <= s.reorder_level)';
const LISTS = {
  '/v1/catalog/products': {
    name: 'products',
    filterNames: ['activeOnly', 'categoryId', 'sku', 'barcode', 'updatedSince', 'q'],
    columns: PRODUCT_COLUMNS,
    rowJoin: (on) => `LEFT JOIN vat_rates v ON v.id = p.vat_rate_id AND v.tenant_id = ${on}`,
    write: product,
  },
  '/v1/inventory/stock': {
    name: 'stock',
    filterNames: ['activeOnly', 'productId', 'sku', 'barcode', 'categoryId', 'updatedSince', 'lowStockOnly'],
    columns: STOCK_COLUMNS,
    rowJoin: (on) => `LEFT JOIN stock_levels s ON s.product_id = p.id AND s.tenant_id = ${on}`,
    write: stock,
  },
};

/** The conditions of the filters given, on products `p` (and `s` for stock filters), binding values. */
function conditions(list, f, bind) {
  const where = [];
  if (f.activeOnly) where.push('p.is_active');
  for (const [name, column] of [
    ['productId', 'p.id'],
    ['categoryId', 'p.category_id'],
    ['sku', 'p.sku'],
    ['barcode', 'p.barcode'],
  ])
    if (f[name] !== undefined) where.push(`${column} = ${bind(f[name])}`);
  if (f.updatedSince !== undefined) {
    const column = list.name === 'stock' ? 'GREATEST(p.updated_at, s.updated_at)' : 'p.updated_at';
    where.push(`${column} >= CAST(${bind(toPostgresTimestamp(f.updatedSince.ceilMs))} AS timestamptz)`);
  }
  if (f.lowStockOnly) where.push(LOW_STOCK);
  for (const term of f.q ?? []) where.push(`p.search_text LIKE ('%' || lower(${bind(escapeLike(term))}) || '%')`);
  return where;
}

async function listPage(list, caller, q) {
  const scope = await scopes.resolve(caller, q.storeId);
  const f = filtersOf(list, q);
  const values = [scope.tenantId];
  const bind = (v) => `$${values.push(v)}`;
  const one = scope.storeIds !== null && scope.storeIds.length === 1 && q.storeId !== undefined;
  const storeCondition =
    scope.storeIds === null
      ? ''
      : ` AND p.store_id ${one ? `= ${bind(scope.storeIds[0])}` : `= ANY(${bind(scope.storeIds)})`}`;
  const scopeValues = [...values];
  const rowFilters = Object.keys(f).filter((n) => f[n] !== undefined && f[n] !== false && n !== 'activeOnly');
  const lowAlone = list.name === 'stock' && rowFilters.length === 1 && rowFilters[0] === 'lowStockOnly';
  let total;
  let idsFrom;
  let where;
  let key = 'p.id';
  if (lowAlone) {
    // The low-stock partial index holds every answer, with the product's isActive.
    idsFrom = 'stock_levels s';
    key = 's.product_id';
    where = [`s.tenant_id = $1${storeCondition.replace('p.store_id', 's.store_id')}`, LOW_STOCK];
    if (f.activeOnly) where.push('s.product_is_active');
  } else {
    const needsStock = list.name === 'stock' && (f.updatedSince !== undefined || f.lowStockOnly);
    idsFrom = needsStock
      ? 'products p LEFT JOIN stock_levels s ON s.product_id = p.id AND s.tenant_id = $1'
      : 'products p';
    where = [`p.tenant_id = $1${storeCondition}`, ...conditions(list, f, bind)];
  }
  const plain = f.q === undefined;
  if (rowFilters.length === 0) {
    const counts =
      'SELECT COALESCE(SUM(c.n), 0)::int FROM product_counts c WHERE c.tenant_id = $1' +
      storeCondition.replace('p.store_id', 'c.store_id') +
      (f.activeOnly ? ' AND c.is_active' : '');
    total = Number((await sql(counts, scopeValues, true))[0][0]);
  } else {
    total = Number(
      (await sql(`SELECT count(*)::int FROM ${idsFrom} WHERE ${where.join(' AND ')}`, [...values], plain))[0][0],
    );
  }
  const binding = CursorCodec.binding([
    list.name,
    caller.tenantId,
    caller.clientId,
    q.storeId,
    f,
    q.pageSize,
    q.changedSince,
  ]);
  let page = q.page ?? 1;
  let offset = (page - 1) * q.pageSize;
  let rows = [];
  let hasNext = false;
  if (q.cursor !== undefined) {
    const state = await cursors.decode(binding, q.cursor, caller.deadlineMs);
    where.push(`${key} > ${bind(state.afterId)}`);
    page = state.page;
    offset = -1;
  }
  if (offset === -1 || offset < total) {
    const limit = bind(q.pageSize + 1);
    const skip = offset === -1 ? '' : ` OFFSET ${bind(offset)}`;
    const text = `SELECT ${list.columns}
  FROM (SELECT ${key} AS id FROM ${idsFrom} WHERE ${where.join(' AND ')} ORDER BY ${key} LIMIT ${limit}${skip}) page
  JOIN products p ON p.id = page.id ${list.rowJoin('$1')}
 WHERE p.tenant_id = $1 ORDER BY p.id`;
    const found = await sql(text, values, plain);
    hasNext = found.length > q.pageSize;
    rows = found.slice(0, q.pageSize);
  }
  const nextCursor =
    hasNext && rows.length > 0
      ? await cursors.encode(binding, { afterId: rows.at(-1)[0], page: page + 1 }, caller.deadlineMs)
      : null;
  return { body: pageBody(rows.map(list.write), page, q.pageSize, total), nextCursor };
}

/** The filters' values as the service's list definitions give them (what a cursor is bound to). */
function filtersOf(list, q) {
  const f = {};
  for (const name of list.filterNames) {
    if (name === 'activeOnly' || name === 'lowStockOnly') f[name] = q[name] === true;
    else if (name === 'q') f.q = q.q === undefined ? undefined : searchTerms(q.q);
    else f[name] = q[name];
  }
  return f;
}

async function productById(caller, id) {
  const scope = await scopes.resolve(caller);
  const values = [scope.tenantId, id];
  const store = scope.storeIds === null ? '' : ` AND p.store_id = ANY(${`$${values.push(scope.storeIds)}`})`;
  const rows = await sql(
    `SELECT ${PRODUCT_COLUMNS} FROM products p LEFT JOIN vat_rates v ON v.id = p.vat_rate_id AND v.tenant_id = $1
      WHERE p.tenant_id = $1${store} AND p.id = $2`,
    values,
    true,
  );
  return rows.length === 0 ? null : product(rows[0]);
}

// --- HTTP -----------------------------------------------------------------------------------------------
/** The query as the DTOs would give it (valid parameters only: no validation). */
function query(params) {
  const text = (name) => params.get(name) ?? undefined;
  const int = (name, fallback) => (params.has(name) ? Number(params.get(name)) : fallback);
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
    updatedSince: params.has('updatedSince') ? parseRfc3339DateTime(params.get('updatedSince')) : undefined,
    activeAt: params.has('activeAt') ? parseRfc3339DateTime(params.get('activeAt')) : undefined,
    lowStockOnly: params.has('lowStockOnly') ? params.get('lowStockOnly') === 'true' : undefined,
    activeOnly: params.has('activeOnly') ? params.get('activeOnly') === 'true' : true,
  };
}

const GZIP_LEVEL = process.env.FAIR_GZIP_LEVEL === undefined ? null : Number(process.env.FAIR_GZIP_LEVEL);
const BROTLI_QUALITY = process.env.FAIR_BROTLI_QUALITY === undefined ? null : Number(process.env.FAIR_BROTLI_QUALITY);
const THRESHOLD = Number(process.env.FAIR_COMPRESSION_THRESHOLD ?? 1024);
const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

async function send(req, res, status, body, headers = {}) {
  const accept = req.headers['accept-encoding'] ?? '';
  let payload = body;
  let encoding = null;
  if (Buffer.byteLength(body) >= THRESHOLD) {
    if (BROTLI_QUALITY !== null && /\bbr\b/.test(accept)) {
      encoding = 'br';
      payload = await brotliAsync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } });
    } else if (GZIP_LEVEL !== null && /\bgzip\b/.test(accept)) {
      encoding = 'gzip';
      payload = await gzipAsync(body, { level: GZIP_LEVEL });
    }
  }
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(payload),
    ...(encoding === null ? {} : { 'Content-Encoding': encoding }),
    ...(GZIP_LEVEL !== null || BROTLI_QUALITY !== null ? { Vary: 'Accept-Encoding' } : {}),
  });
  res.end(payload);
}

const LIVE = JSON.stringify({ status: 'ok', info: {}, error: {}, details: {} });

/** `Link` as the service writes it: every parameter but page and cursor, then the next cursor. */
function links(url, nextCursor) {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const kept = (q === -1 ? [] : url.slice(q + 1).split('&')).filter(
    (p) => p !== '' && !['page', 'cursor'].includes(p.split('=')[0]),
  );
  const at = (extra) => (kept.length + extra.length === 0 ? path : `${path}?${[...kept, ...extra].join('&')}`);
  const all = [`<${at([])}>; rel="first"`];
  if (nextCursor !== null) all.unshift(`<${at([`cursor=${nextCursor}`])}>; rel="next"`);
  return all.join(', ');
}

async function answer(req, res) {
  const url = new URL(req.url, 'http://fair');
  if (url.pathname === '/health/live' || url.pathname === '/health/ready') return send(req, res, 200, LIVE);
  const key = /^bearer (\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
  const caller = key === undefined ? null : await keys.authenticate(key);
  if (caller === null) return send(req, res, 401, '{"error":{"code":"unauthorized"}}');
  const q = query(url.searchParams);
  const path = url.pathname;
  const list = LISTS[path];
  if (list !== undefined) {
    const page = await listPage(list, caller, q);
    return send(req, res, 200, page.body, { Link: links(req.url, page.nextCursor) });
  }
  if (path === '/v1/catalog/categories') return send(req, res, 200, await categories.list(caller, q));
  if (path === '/v1/catalog/promotions') return send(req, res, 200, JSON.stringify(await promotions.list(caller, q)));
  const id = /^\/v1\/catalog\/products\/([^/]+)$/.exec(path)?.[1];
  if (id !== undefined) {
    const row = await productById(caller, decodeURIComponent(id));
    return row === null ? send(req, res, 404, '{"error":{"code":"not_found"}}') : send(req, res, 200, row);
  }
  send(req, res, 404, '{"error":{"code":"not_found"}}');
}

createServer((req, res) => {
  answer(req, res).catch((error) => {
    console.error(error);
    if (!res.headersSent) {
      res.writeHead(500, { 'Content-Type': 'application/json; charset=utf-8' });
      res.end('{"error":{"code":"internal_error"}}');
    }
  });
}).listen(Number(process.env.PORT ?? 3001), '127.0.0.1');

// Exit on a signal through process.exit, so that --cpu-prof can write its profile.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(0));

import { readFileSync } from 'node:fs';
import { ApiError } from '../src/http/api-error.js';
import { CURSOR_PATTERN_TEXT } from '../src/lists/cursor.js';
import { compileSchema, openApiDocument, resolveRef, schemaErrors } from './support/openapi-validator.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * Every example of openapi.json is something the service answers: the examples are rows of the demo
 * data set (fixtures/demo.json), and each is compared here with what the service returns for it, so
 * that an example cannot contradict the contract (availability, money, flags, ids, messages).
 */
type Json = Record<string, any>;
const demo = JSON.parse(readFileSync(new URL('../fixtures/demo.json', import.meta.url), 'utf8'));
/** The demo ERP key: every scope, every store of Corner Shop Group. */
const ERP_KEY = 'ck_test_DemoErpSyncKey0000000000000000000001';
/** The demo price-comparison key: products and promotions only, two stores. */
const COMPARE_KEY = 'ck_test_DemoPriceCompareKey000000000000001';

const schemas = openApiDocument.components.schemas as Record<string, Json>;
const responses = openApiDocument.components.responses as Record<string, Json>;
const headers = openApiDocument.components.headers as Record<string, Json>;
/**
 * What a reader is shown for a schema, as Swagger UI builds it: its example, else one built from its
 * properties' examples (a boolean without one shows as true, a string as "string").
 */
function sampleOf(schema: unknown): any {
  const s = resolveRef<Json>(schema);
  if (s.example !== undefined) return s.example;
  if (s.allOf) return sampleOf(s.allOf[0]);
  if (s.properties)
    return Object.fromEntries(Object.entries(s.properties as Json).map(([name, p]) => [name, sampleOf(p)]));
  if (s.type === 'array') return [sampleOf(s.items)];
  if (s.enum) return s.enum[0];
  return { boolean: true, integer: 0, string: 'string' }[s.type as string];
}
const exampleOf = (name: string): Json => sampleOf({ $ref: `#/components/schemas/${name}` });
const errorExample = (response: string): Json => responses[response].content['application/json'].example;
/** The body of a response without its request id, which differs on every request. */
const withoutRequestId = (body: Json): Json => ({ error: { ...body.error, requestId: undefined } });

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ dataset: demo });
});
afterAll(async () => t?.close());

describe('the examples of the OpenAPI document (issue 17)', () => {
  it('3. give each response schema one whole example, written once (no property carries its own)', () => {
    for (const name of [
      'Product',
      'VatRate',
      'ProductPage',
      'StockRow',
      'StockPage',
      'Category',
      'Promotion',
      'Store',
      'StorePage',
    ])
      expect([name, typeof schemas[name].example]).toEqual([name, 'object']);
    const propertyExamples: string[] = [];
    for (const [name, schema] of Object.entries(schemas))
      for (const [property, value] of Object.entries((schema.properties ?? {}) as Json))
        if (JSON.stringify(value).includes('"example"')) propertyExamples.push(`${name}.${property}`);
    expect(propertyExamples).toEqual([]);
  });

  it('3. all match their schemas', () => {
    const checks: [string, unknown, unknown][] = [
      ...Object.entries(schemas)
        .filter(([, schema]) => schema.example !== undefined)
        .map(([name, schema]): [string, unknown, unknown] => [
          name,
          { $ref: `#/components/schemas/${name}` },
          schema.example,
        ]),
      ...Object.entries(responses)
        .filter(([, response]) => response.content !== undefined)
        .map(([name, response]): [string, unknown, unknown] => [
          name,
          response.content['application/json'].schema,
          response.content['application/json'].example,
        ]),
      ...Object.entries(headers)
        .filter(([, header]) => header.schema.example !== undefined)
        .map(([name, header]): [string, unknown, unknown] => [name, header.schema, header.schema.example]),
    ];
    expect(checks.length).toBeGreaterThan(15);
    for (const [name, schema, example] of checks) {
      const validate = compileSchema(schema);
      expect([name, validate(example) || schemaErrors(validate)]).toEqual([name, true]);
    }
  });

  it('3. the product and its VAT rate are what GET /v1/catalog/products/{id} answers for them', async () => {
    const product = exampleOf('Product');
    const res = await t.get(`/v1/catalog/products/${product.id}`, ERP_KEY).expect(200);
    // Byte for byte, keys in order: the schema's properties follow the example's order (openapi.e2e-spec.ts).
    expect(JSON.stringify(product)).toBe(res.text);
    expect(exampleOf('VatRate')).toEqual(product.vatRate);
  });

  it('3. the stock row has the availability its quantities give, and is what GET /v1/inventory/stock answers', async () => {
    const row = exampleOf('StockRow');
    const [quantity, reorderLevel] = [Number(row.quantity), Number(row.reorderLevel)];
    const availability = !row.trackStock
      ? 'not_tracked'
      : quantity <= 0
        ? 'out_of_stock'
        : quantity <= reorderLevel
          ? 'low_stock'
          : 'in_stock';
    expect(row).toMatchObject({ availability, lowStockThreshold: row.reorderLevel });
    const res = await t.get(`/v1/inventory/stock?productId=${row.productId}`, ERP_KEY).expect(200);
    expect([row]).toEqual(res.body.rows);
  });

  it('3. the pages are what the lists answer for their store, page and page size', async () => {
    for (const [schema, path] of [
      ['ProductPage', '/v1/catalog/products'],
      ['StockPage', '/v1/inventory/stock'],
    ]) {
      const page = exampleOf(schema);
      const query = `storeId=${page.rows[0].storeId}&page=${page.page}&pageSize=${page.pageSize}`;
      const res = await t.get(`${path}?${query}`, ERP_KEY).expect(200);
      expect([schema, page]).toEqual([schema, res.body]);
    }
  });

  it('3. the store page is what the store list answers for its page and page size', async () => {
    const page = exampleOf('StorePage');
    const res = await t.get(`/v1/catalog/stores?page=${page.page}&pageSize=${page.pageSize}`, ERP_KEY).expect(200);
    expect(page).toEqual(res.body);
    expect(exampleOf('Store')).toEqual(page.rows[0]);
  });

  it('3. the category and the promotion are rows of their store', async () => {
    const category = exampleOf('Category');
    const categories = await t.get(`/v1/catalog/categories?storeId=${category.storeId}`, ERP_KEY).expect(200);
    expect(categories.body).toContainEqual(category);
    const promotion = exampleOf('Promotion');
    const promotions = await t.get(`/v1/catalog/promotions?storeId=${promotion.storeId}`, ERP_KEY).expect(200);
    expect(promotions.body).toContainEqual(promotion);
  });

  it('3. the errors are what the service answers, but for the request id, which has the form of a generated one', async () => {
    const answers: Record<string, Promise<{ body: Json; headers: Record<string, string> }>> = {
      ValidationFailed: t.get('/v1/catalog/products?pageSize=0&storeID=sto_camden', ERP_KEY).expect(400),
      Unauthorized: t.get('/v1/catalog/products').expect(401),
      ScopeDenied: t.get('/v1/inventory/stock', COMPARE_KEY).expect(403),
      NotFound: t.get('/v1/catalog/products/prd_camden_999', ERP_KEY).expect(404),
      PayloadTooLarge: t
        .http()
        .get('/v1/catalog/products')
        .set('Authorization', `Bearer ${ERP_KEY}`)
        .send('x'.repeat(t.config.bodyLimitBytes + 1))
        .expect(413),
    };
    for (const [name, answer] of Object.entries(answers)) {
      const res = await answer;
      expect([name, withoutRequestId(errorExample(name))]).toEqual([name, withoutRequestId(res.body)]);
      const generated = res.headers['x-request-id'].replace(/[A-Za-z0-9]/g, 'x');
      expect([name, errorExample(name).error.requestId.replace(/[A-Za-z0-9]/g, 'x')]).toEqual([name, generated]);
    }
    const limited = await createTestApp({ dataset: demo, env: { RATE_LIMIT_PER_MINUTE: '1' } });
    try {
      await limited.get('/v1/catalog/categories', ERP_KEY).expect(200);
      const res = await limited.get('/v1/catalog/categories', ERP_KEY).expect(429);
      const example = errorExample('RateLimited');
      expect(example.error.details.retryAfterSeconds).toBeLessThanOrEqual(60);
      expect(withoutRequestId(example)).toEqual({
        error: {
          ...withoutRequestId(res.body).error,
          details: { retryAfterSeconds: example.error.details.retryAfterSeconds },
        },
      });
    } finally {
      await limited.close();
    }
    const internal = ApiError.internal();
    expect(errorExample('InternalError').error).toMatchObject({
      code: internal.code,
      message: internal.message,
      details: {},
    });
  });

  it('3. the response headers have the form the service sends', async () => {
    const res = await t.get('/v1/catalog/products?activeOnly=false&pageSize=100', ERP_KEY).expect(200);
    const cursor = new RegExp(CURSOR_PATTERN_TEXT.replace(/^\^|\$$/g, ''), 'g');
    const link = resolveRef<Json>(headers.Link).schema.example as string;
    expect(link.match(cursor)).toHaveLength(1);
    expect(link.replace(cursor, 'CURSOR')).toBe(res.headers.link.replace(cursor, 'CURSOR'));
    expect(headers['RateLimit-Policy'].schema.example).toBe(res.headers['ratelimit-policy']);
    const digits = (value: string): string => value.replace(/[0-9]+/g, '9');
    expect(digits(headers.RateLimit.schema.example)).toBe(digits(res.headers.ratelimit));
    // A position is opaque: the example has the form and the length of the ones the service sends.
    const form = (value: string): string => value.replace(/[A-Za-z0-9_-]/g, 'x');
    expect(form(headers['Sync-Position'].schema.example)).toBe(form(res.headers['sync-position']));
  });
});

describe('the sample values of the parameters (issue 17)', () => {
  const parameters = Object.entries(openApiDocument.paths).flatMap(([path, item]) =>
    ((item as Json).get.parameters as unknown[]).map((p) => ({ path, param: resolveRef<Json>(p) })),
  );
  const sampleOf = (param: Json): unknown =>
    param.required ? (param.example ?? param.schema.example) : param['x-example'];

  it('4. every parameter has one that fits its schema; only a required one is an example a tool fills in', () => {
    expect(parameters.length).toBeGreaterThan(30);
    for (const { path, param } of parameters) {
      const sample = sampleOf(param);
      const at = `${path} ${param.name}`;
      expect([at, sample === undefined]).toEqual([at, false]);
      const validate = compileSchema(param.schema);
      expect([at, validate(sample) || schemaErrors(validate)]).toEqual([at, true]);
      if (!param.required) expect([at, param.example, param.schema.example]).toEqual([at, undefined, undefined]);
    }
  });

  // A cursor and a sync position are refused: they are bound to the client and the database that made them.
  // A removals feed needs a position (its changedSince is required): each sample is sent beside a real one,
  // taken from its list (with the same storeId) before a demo product no example names is deleted.
  it('4. each, sent alone, finds something in the demo data (a cursor and a sync position are refused)', async () => {
    const required = new Map(parameters.filter((p) => p.param.in === 'path').map((p) => [p.path, p.param]));
    const listOf: Record<string, string> = {
      '/v1/catalog/product-removals': '/v1/catalog/products',
      '/v1/inventory/stock-removals': '/v1/inventory/stock',
    };
    const positions = new Map<string, string>();
    for (const [removals, list] of Object.entries(listOf))
      for (const store of ['', '&storeId=sto_camden']) {
        const res = await t.get(`${list}?activeOnly=false&pageSize=1${store}`, ERP_KEY);
        positions.set(`${removals}${store}`, res.headers['sync-position']);
      }
    expect(JSON.stringify(openApiDocument)).not.toContain('prd_camden_002');
    await t.db.query(`DELETE FROM products WHERE id = 'prd_camden_002'`);
    for (const { path, param } of parameters) {
      if (param.in === 'path') continue;
      const sample = String(sampleOf(param));
      const url = path.replace(/\{(\w+)\}/, () => String(sampleOf(required.get(path)!)));
      // A page number is tried at one row a page: the demo tenant has only three stores.
      const position = positions.get(`${path}${param.name === 'storeId' ? `&storeId=${sample}` : ''}`);
      const query =
        position === undefined
          ? param.name === 'changedSince'
            ? `changedSince=${sample}&activeOnly=false`
            : param.name === 'page'
              ? `page=${sample}&pageSize=1`
              : `${param.name}=${sample}`
          : param.name === 'changedSince'
            ? `changedSince=${sample}`
            : param.in === 'header'
              ? `changedSince=${position}`
              : `${param.name}=${sample}&changedSince=${position}`;
      const res =
        param.in === 'header'
          ? await t.get(`${url}${position === undefined ? '' : `?${query}`}`, ERP_KEY, { [param.name]: sample })
          : await t.get(`${url}?${encodeURI(query)}`, ERP_KEY);
      const at = `${path} ${param.name}=${sample}`;
      if (param.name === 'cursor' || param.name === 'changedSince') {
        expect([at, res.status, res.body.error.details.errors[0].name]).toEqual([at, 400, param.name]);
        continue;
      }
      expect([at, res.status]).toEqual([at, 200]);
      if (param.in === 'header') expect(res.headers[param.name.toLowerCase()]).toBe(sample);
      const found = Array.isArray(res.body) ? res.body.length : (res.body.rows?.length ?? 1);
      expect([at, found > 0]).toEqual([at, true]);
    }
  });
});

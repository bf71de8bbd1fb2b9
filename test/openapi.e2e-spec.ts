import { SCOPES } from '../src/auth/scopes.js';
import { readdirSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { generateOpenApi } from '../src/tools/cli/openapi.js';
import { KEYS, testDataset } from './support/dataset.js';
import { assertMatchesOpenApi, compileSchema, resolveRef, schemaErrors } from './support/openapi-validator.js';
import { createTestApp, routeTable, type TestApp } from './support/test-app.js';

const committed = readFileSync(new URL('../openapi.json', import.meta.url), 'utf8');
const doc = JSON.parse(committed);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ dataset: testDataset() });
});
afterAll(async () => t.close());

type Json = Record<string, any>;
const METHODS = ['get', 'head'];
/** Every operation of the document, HEAD included. */
const operations = (): { path: string; method: string; op: Json }[] =>
  Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]) => ({ path, method, op: op as Json })),
  );
/** An operation's parameters as a reader sees them: the path item's and its own, references followed. */
const parametersOf = (path: string, method: string): Json[] =>
  [...(doc.paths[path].parameters ?? []), ...(doc.paths[path][method]?.parameters ?? [])].map((p) => resolveRef(p));
/** Calls `visit` on every object of the document, with its JSON path. */
function walk(node: unknown, visit: (node: Json, path: string) => void, path = '#'): void {
  if (typeof node !== 'object' || node === null) return;
  if (!Array.isArray(node)) visit(node as Json, path);
  for (const [key, value] of Object.entries(node)) walk(value, visit, `${path}/${key}`);
}

describe('the OpenAPI document', () => {
  it('is what the code generates (run `npm run openapi` after changing the API)', async () => {
    expect(await generateOpenApi()).toBe(committed);
  });

  it('describes exactly the /v1 routes the application serves and their HEAD, with scope, security, every status', () => {
    const all = operations();
    // The routes are the controllers' (the committed document shows a new one in review): none is
    // served undocumented, none documented unserved.
    const v1 = routeTable(t).filter((r) => r.path.startsWith('/v1/'));
    expect(v1.length).toBeGreaterThanOrEqual(8);
    expect(all.map((o) => `${o.method} ${o.path}`).sort()).toEqual(
      v1
        .map((r) => r.path.replace(/:(\w+)/g, '{$1}'))
        .flatMap((path) => [`get ${path}`, `head ${path}`])
        .sort(),
    );
    const scopes = Object.fromEntries(v1.map((r) => [r.path.replace(/:(\w+)/g, '{$1}'), r.scope]));
    for (const { path, method, op } of all) {
      // `any`: any one of the read scopes (GET /v1/catalog/stores).
      expect(op['x-required-scopes']).toEqual(scopes[path] === 'any' ? [...SCOPES] : [scopes[path]]);
      if (method === 'get') for (const scope of op['x-required-scopes']) expect(op.description).toContain(scope);
      expect(op.security).toEqual([{ apiKey: [] }]);
      expect(Object.keys(op.responses)).toEqual(['200', '400', '401', '403', '404', '413', '429', '500', '503']);
      for (const [status, ref] of Object.entries(op.responses as Json)) {
        const response = resolveRef<Json>(ref);
        expect(Object.keys(response.headers)).toEqual(
          expect.arrayContaining(['X-Request-Id', 'RateLimit-Policy', 'RateLimit', 'Cache-Control']),
        );
        if (status !== '200' && method === 'get')
          expect(response.content['application/json'].example.error.code).toEqual(expect.any(String));
      }
      expect(resolveRef<Json>(resolveRef<Json>(op.responses['429']).headers['Retry-After']).schema).toEqual({
        type: 'integer',
        format: 'int32',
        minimum: 1,
      });
      expect(parametersOf(path, method).find((p) => p.name === 'X-Request-Id')).toMatchObject({
        in: 'header',
        required: false,
      });
    }
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.info.version).toBe('1.0.0');
  });

  it('documents every parameter rule the service enforces', () => {
    const params = Object.fromEntries(parametersOf('/v1/catalog/products', 'get').map((p) => [p.name, p]));
    expect(params.pageSize.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 50 });
    expect(params.page.schema).toMatchObject({ type: 'integer', minimum: 1 });
    expect(params.activeOnly.schema).toMatchObject({ type: 'boolean', default: true });
    expect(params.updatedSince.schema).toMatchObject({ type: 'string', format: 'date-time' });
    expect(params.storeId.schema).toMatchObject({ pattern: '^[A-Za-z0-9_.:-]{1,128}$', maxLength: 128 });
    expect(params.q.schema).toMatchObject({ minLength: 1, maxLength: 200 });
    const sortBy = parametersOf('/v1/catalog/categories', 'get').find((p) => p.name === 'sortBy')!;
    expect(sortBy.schema).toMatchObject({ enum: ['sortOrder', 'name'], default: 'sortOrder' });
    const id = parametersOf('/v1/catalog/products/{id}', 'get').find((p) => p.name === 'id');
    expect(id).toMatchObject({ in: 'path', required: true, schema: { pattern: '^[A-Za-z0-9_.:-]{1,128}$' } });
  });

  it('marks nullable fields nullable and decimals as patterned strings', () => {
    const product = doc.components.schemas.Product;
    expect(product.properties.barcode).toMatchObject({ type: 'string', nullable: true });
    expect(product.properties.vatRate).toEqual({ $ref: '#/components/schemas/VatRate' });
    expect(doc.components.schemas.VatRate).toMatchObject({ type: 'object', nullable: true });
    expect(product.properties.sellingPriceGross).toMatchObject({ type: 'string', pattern: '^-?[0-9]+\\.[0-9]{2}$' });
    expect(doc.components.schemas.StockRow.properties.quantity).toMatchObject({
      type: 'string',
      pattern: '^-?[0-9]+\\.[0-9]{3}$',
    });
    // In the contract's key order: its example's, which test/openapi-examples.e2e-spec.ts compares byte
    // for byte with what the service answers (so a new column is stated once, in the view).
    expect(Object.keys(product.properties)).toEqual(Object.keys(product.example));
  });

  it('catches a response that drifts from the document (the check every HTTP test runs)', () => {
    const ok = {
      status: 200,
      headers: { 'x-request-id': 'req_x', ratelimit: 'r', 'ratelimit-policy': 'p', 'cache-control': 'no-store' },
    };
    // A valid product: the schema's own example (a row of the demo data, checked against the service).
    const product = doc.components.schemas.Product.example;
    expect(() => assertMatchesOpenApi('GET', '/v1/catalog/products/p', { ...ok, body: product })).not.toThrow();
    expect(() =>
      assertMatchesOpenApi('GET', '/v1/catalog/products/p', { ...ok, body: { ...product, sellingPriceGross: 1.2 } }),
    ).toThrow(/does not match/);
    expect(() =>
      assertMatchesOpenApi('GET', '/v1/catalog/products/p', { ...ok, body: { ...product, unitType: 'box' } }),
    ).toThrow(/does not match/);
    expect(() => assertMatchesOpenApi('GET', '/v1/catalog/products/p', { ...ok, status: 418, body: {} })).toThrow(
      /does not document status 418/,
    );
    expect(() =>
      assertMatchesOpenApi('GET', '/v1/catalog/products/p', {
        ...ok,
        headers: { 'x-request-id': 'a b' },
        body: product,
      }),
    ).toThrow(/header/);
  });
});

describe('the OpenAPI document as generators and validators read it (issue 17)', () => {
  it('1. accepts any X-Request-Id a client sends (the service replaces an invalid one): the rule is in the description', async () => {
    for (const { path, method } of operations()) {
      const param = parametersOf(path, method).find((p) => p.name === 'X-Request-Id');
      expect(param).toMatchObject({ in: 'header', required: false });
      expect(param!.description).toContain('^[A-Za-z0-9_.:-]{1,80}$');
      const validate = compileSchema(param!.schema);
      for (const sent of ['not a valid id!', 'x'.repeat(81), 'ünïcode', ''])
        expect([sent, validate(sent)]).toEqual([sent, true]);
    }
    const res = await t.get('/v1/catalog/products', KEYS.tenantA, { 'X-Request-Id': 'not a valid id!' }).expect(200);
    expect(res.headers['x-request-id']).toMatch(/^req_/);
  });

  it("writes the parameters on each operation, none on a path item (orval reads only the operation's)", () => {
    for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
      expect([path, item.parameters]).toEqual([path, undefined]);
      for (const method of ['get', 'head'])
        expect([path, method, parametersOf(path, method).length > 0]).toEqual([path, method, true]);
    }
    expect(parametersOf('/v1/catalog/products', 'get').map((p) => p.name)).toEqual(
      expect.arrayContaining(['storeId', 'pageSize', 'cursor', 'X-Request-Id']),
    );
  });

  it('gives `page` no default ("1 when absent"): a tool that sends defaults would send it beside a cursor', () => {
    const page = parametersOf('/v1/catalog/products', 'get').find((p) => p.name === 'page')!;
    expect([page.default, page.schema.default]).toEqual([undefined, undefined]);
    expect(page.description).toContain('1 when absent');
  });

  it('1. documents HEAD on every path: the parameters, statuses and headers of GET, without a body', async () => {
    for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
      const { get, head } = item;
      expect([path, typeof head]).toEqual([path, 'object']);
      expect(head.operationId).toBe(`${get.operationId}Head`);
      expect(head['x-required-scopes']).toEqual(get['x-required-scopes']);
      expect(head.security).toEqual(get.security);
      expect(parametersOf(path, 'head')).toEqual(parametersOf(path, 'get'));
      expect(Object.keys(head.responses)).toEqual(Object.keys(get.responses));
      for (const status of Object.keys(get.responses)) {
        const [h, g] = [resolveRef<Json>(head.responses[status]), resolveRef<Json>(get.responses[status])];
        expect(h.content).toBeUndefined();
        expect(h.headers).toEqual(g.headers);
      }
    }
    // The HTTP tests' check follows it: HEAD answers are checked, and must carry the headers.
    await t.head('/v1/catalog/products?pageSize=1', KEYS.tenantA).expect(200);
    await t.head('/v1/catalog/products/nope', KEYS.tenantA).expect(404);
    await t.head('/v1/inventory/stock', null).expect(401);
    expect(() => assertMatchesOpenApi('HEAD', '/v1/catalog/products', { status: 200, body: '', headers: {} })).toThrow(
      /lacks the documented header/,
    );
  });

  it('2. gives every integer a format that holds its range, and a page at most 100 rows', () => {
    const integers: string[] = [];
    walk(doc, (node, path) => {
      if (node.type !== 'integer') return;
      integers.push(path);
      const needs64 = (node.maximum ?? 0) > 2 ** 31 - 1;
      expect([path, node.format]).toEqual([path, needs64 ? 'int64' : 'int32']);
    });
    expect(integers.length).toBeGreaterThan(10);
    const page = parametersOf('/v1/catalog/products', 'get').find((p) => p.name === 'page')!;
    expect(page.schema).toMatchObject({ type: 'integer', format: 'int64', maximum: Number.MAX_SAFE_INTEGER });
    for (const name of ['ProductPage', 'StockPage']) {
      const pageSchema = doc.components.schemas[name];
      expect(pageSchema.properties.rows).toMatchObject({ type: 'array', maxItems: 100 });
      expect(pageSchema.properties.page).toMatchObject({ format: 'int64' });
      expect(pageSchema.properties.total).toMatchObject({ format: 'int32' });
    }
  });

  it('2. types error.details by error code', () => {
    const validate = compileSchema({ $ref: '#/components/schemas/ErrorEnvelope' });
    const envelope = (code: string, details: unknown) => ({
      error: { code, message: 'm', details, requestId: 'req_1' },
    });
    const valid = [
      envelope('validation_failed', { errors: [{ in: 'query', name: 'pageSize', message: 'm' }] }),
      envelope('validation_failed', { errors: [] }),
      envelope('scope_denied', { requiredScopes: ['inventory.stock.read'] }),
      envelope('rate_limited', { retryAfterSeconds: 3 }),
      envelope('service_unavailable', { retryAfterSeconds: 1 }),
      ...['unauthorized', 'not_found', 'payload_too_large', 'internal_error'].map((code) => envelope(code, {})),
    ];
    for (const body of valid) expect([body, validate(body) || schemaErrors(validate)]).toEqual([body, true]);
    const invalid = [
      envelope('validation_failed', {}),
      envelope('validation_failed', { errors: [{ in: 'body', name: 'x', message: 'm' }] }),
      envelope('scope_denied', { errors: [] }),
      envelope('scope_denied', { requiredScopes: [] }),
      envelope('rate_limited', { retryAfterSeconds: '3' }),
      envelope('rate_limited', {}),
      envelope('not_found', { retryAfterSeconds: 3 }),
      envelope('teapot', {}),
    ];
    for (const body of invalid) expect([body, validate(body)]).toEqual([body, false]);
  });

  it('2. names the VAT rate schema, and a strict OpenAPI 3.0 reader still accepts a product without one', () => {
    expect(doc.components.schemas.VatRate).toMatchObject({ type: 'object' });
    expect(JSON.stringify(doc.components.schemas.Product.properties.vatRate)).toContain('#/components/schemas/VatRate');
    const validate = compileSchema({ $ref: '#/components/schemas/Product' });
    const product = doc.components.schemas.Product.example;
    for (const vatRate of [null, { id: 'vat_cs_std', code: 'S', name: 'Standard rate', percentage: '20.00' }])
      expect(validate({ ...product, vatRate }) || schemaErrors(validate)).toBe(true);
    for (const vatRate of [{}, 'S', { id: 'v', code: 'S', name: 'n', percentage: 20 }])
      expect(validate({ ...product, vatRate })).toBe(false);
  });

  it('2. lists this server, the development and the production base address, and a contact', () => {
    const hosts = readdirSync('deploy/overlays').map((env) => {
      const kustomization = parse(readFileSync(`deploy/overlays/${env}/kustomization.yaml`, 'utf8'));
      const patch = kustomization.patches.find((p: Json) => p.target.kind === 'Ingress');
      return [env, parse(patch.patch).find((op: Json) => op.path === '/spec/rules/0/host').value];
    });
    expect(doc.servers[0].url).toBe('/');
    for (const [env, host] of hosts)
      expect(doc.servers).toContainEqual({ url: `https://${host}`, description: expect.stringContaining(env) });
    expect(doc.info.contact.name).toEqual(expect.any(String));
    expect(doc.info.contact.email ?? doc.info.contact.url).toEqual(expect.any(String));
  });

  it('2. declares the error responses, the headers and the shared parameters once, and refers to them', () => {
    for (const { path, method, op } of operations()) {
      for (const [status, response] of Object.entries(op.responses as Json))
        if (status !== '200')
          expect([path, method, status, response.$ref]).toEqual([path, method, status, expect.any(String)]);
      const requestId = [...(doc.paths[path].parameters ?? []), ...(op.parameters ?? [])].find(
        (p: Json) => resolveRef<Json>(p).name === 'X-Request-Id',
      );
      expect(requestId.$ref).toBe('#/components/parameters/X-Request-Id');
    }
    // No header object is written out more than once: every response refers to components.headers.
    walk(doc, (node, path) => {
      if (!/\/responses\/[^/]+$/.test(path) || !node.headers) return;
      for (const [name, header] of Object.entries(node.headers as Json))
        expect([path, name, header.$ref]).toEqual([path, name, `#/components/headers/${name}`]);
    });
    // 135 kB for the first five operations when every operation wrote out its 8 responses and their
    // headers; 91 kB with parameters on each operation (GET and HEAD: generators read them there) and the
    // compression headers, 115 kB with the two removals feeds: at most 10 kB per operation (GET or HEAD).
    expect(committed.length / operations().length).toBeLessThan(10_000);
  });
});

describe('/docs', () => {
  it('serves the document at /docs/openapi.json and Swagger UI from local files', async () => {
    const json = await t.http().get('/docs/openapi.json').expect(200);
    expect(json.body.paths['/v1/catalog/products']).toBeDefined();
    expect(json.body).toEqual(doc);
    const html = await t.http().get('/docs').expect(200);
    expect(html.text).toContain('swagger-ui');
    const scripts = [...html.text.matchAll(/<(?:script|link)[^>]+(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) {
      expect(src).not.toMatch(/^(https?:)?\/\//);
      await t.http().get(new URL(src, 'http://x/docs').pathname).expect(200);
    }
  });

  it('needs no API key and is not rate-limited as /v1 is', async () => {
    const res = await t.http().get('/docs/openapi.json').expect(200);
    expect(res.headers['ratelimit']).toBeUndefined();
    await t.get('/v1/catalog/products', KEYS.tenantA).expect(200);
  });

  it('keeps an authorized key in the browser (local storage) on a development server only', async () => {
    const persists = async (app: TestApp): Promise<unknown> =>
      /"persistAuthorization": (true|false)/.exec(
        (await app.http().get('/docs/swagger-ui-init.js').expect(200)).text,
      )?.[1];
    expect(await persists(t)).toBe('true');
    const hint = async (app: TestApp): Promise<boolean> =>
      (await app.http().get('/docs/swagger-ui-init.js').expect(200)).text.includes('"demoKeysHint"');
    // The Authorize dialog's hint at the demo keys (test/docs-browser.e2e-spec.ts sees it shown).
    expect(await hint(t)).toBe(true);
    const production = await createTestApp({ env: { APP_ENV: 'production' } });
    try {
      expect(await persists(production)).toBe('false');
      expect(await hint(production)).toBe(false);
    } finally {
      await production.close();
    }
  });

  it('/ and /v1 answer, without a key, where the documentation, the document and the probes are', async () => {
    for (const path of ['/', '/v1']) {
      const res = await t.http().get(path).expect(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.body).toEqual({
        name: 'Catalog and Inventory Read API',
        api: '/v1',
        docs: '/docs',
        openapi: '/docs/openapi.json',
        health: { live: '/health/live', ready: '/health/ready' },
      });
      for (const target of [res.body.docs, res.body.openapi, res.body.health.live])
        await t.http().get(target).expect(200);
    }
    // Not an operation of the API: the OpenAPI document has neither.
    expect(Object.keys(doc.paths).filter((p) => p === '/' || p === '/v1')).toEqual([]);
    // Anything else unknown is still a 404.
    expect((await t.http().get('/v2').expect(404)).body.error.code).toBe('not_found');
  });

  it('is off with DOCS_ENABLED=false', async () => {
    const off = await createTestApp({ env: { DOCS_ENABLED: 'false' } });
    try {
      const res = await off.http().get('/docs/openapi.json').expect(404);
      expect(res.body.error.code).toBe('not_found');
      await off.http().get('/docs').expect(404);
      expect((await off.http().get('/').expect(200)).body).toMatchObject({ docs: null, openapi: null });
    } finally {
      await off.close();
    }
  });
});

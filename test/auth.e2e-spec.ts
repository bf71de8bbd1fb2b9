import { KEYS, testDataset } from './support/dataset.js';
import { createTestApp, routeTable, type TestApp } from './support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ dataset: testDataset() });
});
afterAll(async () => t.close());

const PRODUCTS = '/v1/catalog/products';

async function expectUnauthorized(headers: Record<string, string>, path = PRODUCTS): Promise<void> {
  const res = await t.http().get(path).set(headers).expect(401);
  expect(res.headers['www-authenticate']).toBe('Bearer');
  expect(res.body).toEqual({
    error: { code: 'unauthorized', message: expect.any(String), details: {}, requestId: res.headers['x-request-id'] },
  });
}

describe('authentication', () => {
  it('accepts a valid key, with the scheme word in any case', async () => {
    await t.get(PRODUCTS, KEYS.tenantA).expect(200);
    await t.http().get(PRODUCTS).set('Authorization', `bearer ${KEYS.tenantA}`).expect(200);
    await t.http().get(PRODUCTS).set('Authorization', `BEARER ${KEYS.tenantA}`).expect(200);
  });

  it.each([
    ['a missing header', {}],
    ['an empty header', { Authorization: '' }],
    ['the wrong scheme', { Authorization: `Basic ${KEYS.tenantA}` }],
    ['a bare key', { Authorization: KEYS.tenantA }],
    ['two spaces', { Authorization: `Bearer  ${KEYS.tenantA}` }],
    ['trailing text', { Authorization: `Bearer ${KEYS.tenantA} extra` }],
    ['a malformed key', { Authorization: 'Bearer ck_test_short' }],
    ['a key with a bad character', { Authorization: `Bearer ${KEYS.tenantA.slice(0, -1)}!` }],
    ['an unknown key', { Authorization: `Bearer ${KEYS.unknown}` }],
    ['a revoked key', { Authorization: `Bearer ${KEYS.revoked}` }],
    ['an expired key', { Authorization: `Bearer ${KEYS.expired}` }],
    ['a key of a DISABLED client', { Authorization: `Bearer ${KEYS.disabledClient}` }],
    ['a key of a REVOKED client', { Authorization: `Bearer ${KEYS.revokedClient}` }],
    ['a production key on a development server', { Authorization: `Bearer ${KEYS.production}` }],
    [
      'a JWT-looking staff token',
      { Authorization: 'Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJzdGFmZiJ9.c2lnbmF0dXJl' },
    ],
  ])('refuses %s with the same 401', async (_name, headers) => {
    await expectUnauthorized(headers as Record<string, string>);
  });

  it('refuses a key in the query string only with the same 401', async () => {
    await expectUnauthorized({}, `${PRODUCTS}?api_key=${KEYS.tenantA}`);
  });

  it('does not take a key from the query string (api_key is an unknown parameter)', async () => {
    await t.get(`${PRODUCTS}?api_key=${KEYS.tenantA}`).expect(401);
    const res = await t.get(`${PRODUCTS}?api_key=${KEYS.tenantA}`, KEYS.tenantA).expect(400);
    expect(res.body.error.details.errors).toEqual([{ in: 'query', name: 'api_key', message: expect.any(String) }]);
  });

  it('gives every 401 the same message whatever the cause', async () => {
    const messages = new Set<string>();
    for (const key of [KEYS.unknown, KEYS.revoked, KEYS.expired, KEYS.disabledClient, KEYS.production]) {
      messages.add((await t.get(PRODUCTS, key).expect(401)).body.error.message);
    }
    messages.add((await t.get(PRODUCTS).expect(401)).body.error.message);
    expect(messages.size).toBe(1);
  });

  it('refuses a key that expires while in use and a key revoked in the database', async () => {
    const key = 'ck_test_ShortLivedKey000000000000000000000000001';
    await t.db.query(
      `INSERT INTO api_keys (id, client_id, key_digest, key_hint, expires_at)
      VALUES ('key_short', 'cli_a_all', encode(sha256($1::bytea), 'hex'), 'x', now() + interval '1 hour')`,
      [key],
    );
    await t.get(PRODUCTS, key).expect(200);
    await t.db.query(`UPDATE api_keys SET expires_at = now() WHERE id = 'key_short'`);
    await t.get(PRODUCTS, key).expect(401);
    await t.db.query(`UPDATE api_keys SET expires_at = NULL, revoked_at = now() WHERE id = 'key_short'`);
    await t.get(PRODUCTS, key).expect(401);
  });

  it('on a production server accepts only ck_live_ keys', async () => {
    const prod = await createTestApp({ dataset: testDataset(), env: { APP_ENV: 'production' } });
    try {
      await prod.get(PRODUCTS, KEYS.production).expect(200);
      await prod.get(PRODUCTS, KEYS.tenantA).expect(401);
    } finally {
      await prod.close();
    }
  });
});

describe('scopes', () => {
  it.each([
    [PRODUCTS, 'catalog.products.read'],
    [`${PRODUCTS}/prd_a1_cola`, 'catalog.products.read'],
  ])('refuses %s without its scope with 403 and requiredScopes', async (path, scope) => {
    const res = await t.get(path, KEYS.tenantACategoriesOnly).expect(403);
    expect(res.body).toEqual({
      error: {
        code: 'scope_denied',
        message: expect.any(String),
        details: { requiredScopes: [scope] },
        requestId: res.headers['x-request-id'],
      },
    });
  });

  it('checks scope (403) before parameters (400) and parameters before stores (404)', async () => {
    await t.get(`${PRODUCTS}?page=0`, KEYS.tenantACategoriesOnly).expect(403);
    await t.get(`${PRODUCTS}?page=0&storeId=sto_b1`, KEYS.tenantA).expect(400);
    await t.get(`${PRODUCTS}?page=1&storeId=sto_b1`, KEYS.tenantA).expect(404);
    await t.get(`${PRODUCTS}?page=0`).expect(401);
  });

  it('every /v1 route declares a scope (walks the route table)', () => {
    const routes = routeTable(t);
    expect(routes.map((r) => r.path)).toEqual(
      expect.arrayContaining(['/v1/catalog/products', '/v1/catalog/products/:id']),
    );
    // Except /v1 itself: the index that points at the documentation (src/health/index.controller.ts).
    const v1 = routes.filter((r) => r.path.startsWith('/v1') && r.path !== '/v1');
    expect(v1.filter((r) => r.scope === undefined || r.isPublic)).toEqual([]);
    expect(routes.filter((r) => r.path === '/v1').map((r) => r.isPublic)).toEqual([true]);
  });
});

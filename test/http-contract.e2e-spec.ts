import type { Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { KEYS, testDataset } from './support/dataset.js';
import { expectRawEnvelope } from './support/raw-http.js';
import { createTestApp, type TestApp } from './support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ dataset: testDataset(), env: { BODY_LIMIT_BYTES: '1024' } });
});
afterAll(async () => t.close());

const PRODUCTS = '/v1/catalog/products';

/** Writes raw bytes on a new connection and reads everything the server answers until it closes the connection. */
async function exchange(raw: string | Buffer): Promise<{ status: number; head: string; body: string }> {
  const server = t.app.getHttpServer() as Server;
  if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const reply = await new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    // Not half-closed: Node would abort a request whose client has ended its side.
    const socket = connect(port, '127.0.0.1', () => socket.write(raw));
    socket
      .setTimeout(5000, () => socket.destroy())
      .on('data', (c: Buffer) => chunks.push(c))
      .on('close', () => resolve(Buffer.concat(chunks).toString('utf8')))
      .on('error', reject);
  });
  const [head, body] = [reply.slice(0, reply.indexOf('\r\n\r\n')), reply.slice(reply.indexOf('\r\n\r\n') + 4)];
  return { status: Number(head.split(' ')[1]), head, body };
}

function expectEnvelope(res: { body: unknown; headers: Record<string, string> }, code: string): void {
  const body = res.body as { error: Record<string, unknown> };
  expect(Object.keys(body)).toEqual(['error']);
  expect(Object.keys(body.error)).toEqual(['code', 'message', 'details', 'requestId']);
  expect(body.error.code).toBe(code);
  expect(typeof body.error.message).toBe('string');
  expect(body.error.requestId).toBe(res.headers['x-request-id']);
}

describe('request ids', () => {
  it('echoes a well-formed X-Request-Id on success and in error bodies', async () => {
    const ok = await t.get(PRODUCTS, KEYS.tenantA, { 'X-Request-Id': 'abc.DEF_1:2-3' }).expect(200);
    expect(ok.headers['x-request-id']).toBe('abc.DEF_1:2-3');
    const err = await t.get(PRODUCTS, null, { 'X-Request-Id': 'trace-1' }).expect(401);
    expect(err.headers['x-request-id']).toBe('trace-1');
    expect(err.body.error.requestId).toBe('trace-1');
    const max = 'a'.repeat(80);
    expect((await t.get(PRODUCTS, KEYS.tenantA, { 'X-Request-Id': max })).headers['x-request-id']).toBe(max);
  });

  it.each([
    ['too long', 'a'.repeat(81)],
    ['a space', 'a b'],
    ['a slash', 'a/b'],
    ['a semicolon', 'a;b'],
    ['a plus', 'a+b'],
    ['an API key in it', `x.${KEYS.tenantB}`],
  ])('replaces an id with %s by a generated req_ id', async (_name, given) => {
    const res = await t.get(PRODUCTS, KEYS.tenantA, { 'X-Request-Id': given }).expect(200);
    expect(res.headers['x-request-id']).toMatch(/^req_[A-Za-z0-9]{20,}$/);
    const err = await t.get(PRODUCTS, null, { 'X-Request-Id': given }).expect(401);
    expect(err.body.error.requestId).toBe(err.headers['x-request-id']);
    expect(err.body.error.requestId).toMatch(/^req_/);
  });

  it('generates distinct req_ ids with at least 20 random letters and digits', async () => {
    const a = (await t.get(PRODUCTS, KEYS.tenantA)).headers['x-request-id'];
    const b = (await t.get(PRODUCTS, KEYS.tenantA)).headers['x-request-id'];
    expect(a).toMatch(/^req_[A-Za-z0-9]{20,}$/);
    expect(a).not.toBe(b);
  });
});

describe('error envelope for every status', () => {
  it('400 lists every failing parameter, unknown and repeated ones included', async () => {
    const res = await t
      .get(`${PRODUCTS}?page=0&pageSize=101&storeID=sto_a1&sku=A&sku=B&activeOnly=&q=%01`, KEYS.tenantA)
      .expect(400);
    expectEnvelope(res, 'validation_failed');
    const errors = res.body.error.details.errors as { in: string; name: string; message: string }[];
    expect(errors.map((e) => e.name).sort()).toEqual(['activeOnly', 'page', 'pageSize', 'q', 'sku', 'storeID']);
    expect(errors.every((e) => e.in === 'query' && e.message.length > 0)).toBe(true);
    // The message a log or an exception shows names them too (it said only "One or more parameters are invalid.").
    expect(res.body.error.message).toBe(`Invalid parameters: ${errors.map((e) => e.name).join(', ')}.`);
  });

  it('400 for one parameter: the message names it and says what it must be', async () => {
    const res = await t.get(`${PRODUCTS}?pageSize=101`, KEYS.tenantA).expect(400);
    expect(res.body.error.message).toBe('Invalid query parameter pageSize: must be a whole number from 1 to 100.');
    const path = await t.get(`${PRODUCTS}/${'x'.repeat(129)}`, KEYS.tenantA).expect(400);
    expect(path.body.error.message).toMatch(/^Invalid path parameter id: must be an id/);
  });

  it('404 for unknown routes and for methods other than GET and HEAD', async () => {
    for (const res of [
      await t.get('/v1/nope', KEYS.tenantA),
      await t.get('/nope'),
      await t.http().post(PRODUCTS).set('Authorization', `Bearer ${KEYS.tenantA}`),
      await t.http().delete(`${PRODUCTS}/prd_a1_cola`).set('Authorization', `Bearer ${KEYS.tenantA}`),
      await t.http().put(PRODUCTS),
      await t.http().patch(PRODUCTS),
    ]) {
      expect(res.status).toBe(404);
      expectEnvelope(res, 'not_found');
    }
  });

  it('HEAD is answered like GET without a body', async () => {
    const res = await t.http().head(PRODUCTS).set('Authorization', `Bearer ${KEYS.tenantA}`).expect(200);
    expect(res.headers['x-request-id']).toMatch(/^req_/);
  });

  it('413 for any body over BODY_LIMIT_BYTES, whatever its content type, and 200 under it', async () => {
    const big = 'x'.repeat(1025);
    for (const type of [
      'application/json',
      'text/plain',
      'application/octet-stream',
      'application/x-www-form-urlencoded',
    ]) {
      const res = await t
        .http()
        .get(PRODUCTS)
        .set('Authorization', `Bearer ${KEYS.tenantA}`)
        .set('Content-Type', type)
        .send(big);
      expect(res.status).toBe(413);
      expectEnvelope(res, 'payload_too_large');
      expect(res.headers['ratelimit-policy']).toBe('"per-client";q=600;w=60');
      expect(res.headers.ratelimit).toMatch(/^"per-client";r=\d+;t=\d+$/);
    }
    const post = await t
      .http()
      .post('/anything')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ a: big }));
    expect(post.status).toBe(413);
    await t
      .http()
      .get(PRODUCTS)
      .set('Authorization', `Bearer ${KEYS.tenantA}`)
      .set('Content-Type', 'text/plain')
      .send('x'.repeat(1000))
      .expect(200);
  });

  it('a path that does not percent-decode gets the usual checks in order, and the service keeps serving', async () => {
    const bad = `${PRODUCTS}/%E0%A4%A`;
    const anonymous = await t.get(bad).expect(401);
    expectEnvelope(anonymous, 'unauthorized');
    expect(anonymous.headers['ratelimit-policy']).toMatch(/^"per-ip"/);
    expectEnvelope(await t.get(bad, KEYS.tenantACategoriesOnly).expect(403), 'scope_denied');
    const res = await t.get(bad, KEYS.tenantA).expect(400);
    expectEnvelope(res, 'validation_failed');
    expect(res.body.error.details.errors).toEqual([{ in: 'path', name: 'id', message: expect.stringMatching(/id/) }]);
    expectEnvelope(await t.get('/v1/%zz', KEYS.tenantA).expect(404), 'not_found');
    await t.get(`${PRODUCTS}/prd_a1_cola`, KEYS.tenantA).expect(200);
    const metrics = await t.http().get('/metrics').expect(200);
    expect(metrics.text).toMatch(/route="\/v1\/catalog\/products\/:id",status="400"/);
  });

  it('a request that Node cannot parse still gets the 400 envelope, a request id and the rate-limit headers', async () => {
    const requests = [
      Buffer.concat([
        Buffer.from(`GET ${PRODUCTS}?q=`),
        Buffer.from('éclair', 'utf8'),
        Buffer.from(' HTTP/1.1\r\nHost: x\r\n\r\n'),
      ]),
      Buffer.from(`GET ${PRODUCTS} HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n`),
    ];
    for (const raw of requests) {
      const reply = await exchange(raw);
      expect(reply.head).toMatch(/^HTTP\/1\.1 400 /);
      expectRawEnvelope(reply, 'validation_failed');
      expect(JSON.parse(reply.body).error.details).toEqual({ errors: [] });
      // Neither its key nor its path can be read: it spends from its address's budget.
      expect(reply.head).toMatch(/^RateLimit-Policy: "per-ip";q=60;w=60$/m);
      expect(reply.head).toMatch(/^RateLimit: "per-ip";r=\d+;t=\d+$/m);
    }
    await t.get(PRODUCTS, KEYS.tenantA).expect(200);
  });

  it('requests Node would answer by itself get the envelope, a request id and on /v1 the rate-limit headers', async () => {
    // HTTP/1.1 without Host: Node would send a bare 400.
    const hostless = await exchange(
      `GET ${PRODUCTS} HTTP/1.1\r\nAuthorization: Bearer ${KEYS.tenantA}\r\nConnection: close\r\n\r\n`,
    );
    expect(hostless.status).toBe(400);
    expectRawEnvelope(hostless, 'validation_failed');
    expect(hostless.head).toMatch(/^RateLimit-Policy: "per-client";q=600;w=60$/m);
    // An expectation other than 100-continue: Node would send a bare 417, which the contract does not have.
    const expectation = await exchange(
      `GET ${PRODUCTS} HTTP/1.1\r\nHost: x\r\nExpect: bogus\r\nConnection: close\r\n\r\n`,
    );
    expect(expectation.status).toBe(400);
    expectRawEnvelope(expectation, 'validation_failed');
    expect(expectation.head).toMatch(/^RateLimit: "per-ip";r=\d+;t=\d+$/m);
    // CONNECT: Node would close the connection without a byte. A method other than GET and HEAD: 404.
    const tunnel = await exchange('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expect(tunnel.status).toBe(404);
    expectRawEnvelope(tunnel, 'not_found');
    // HTTP/1.0 needs no Host, and 100-continue is honoured.
    expect((await exchange(`GET ${PRODUCTS} HTTP/1.0\r\nAuthorization: Bearer ${KEYS.tenantA}\r\n\r\n`)).status).toBe(
      200,
    );
    const continued = await exchange(
      `GET ${PRODUCTS} HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nAuthorization: Bearer ${KEYS.tenantA}\r\nConnection: close\r\n\r\n`,
    );
    expect(continued.status).toBe(100);
    expect(continued.body).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
  });

  it('conditional requests are answered in full: the contract has no 304', async () => {
    const tomorrow = new Date(Date.now() + 86_400_000).toUTCString();
    const conditions: Record<string, string>[] = [
      { 'If-None-Match': '*' },
      { 'If-None-Match': 'W/"x", *' },
      { 'If-Modified-Since': tomorrow },
    ];
    for (const headers of conditions) {
      const res = await t.get(PRODUCTS, KEYS.tenantA, headers);
      expect([headers, res.status]).toEqual([headers, 200]);
      expect(res.body.rows.length).toBeGreaterThan(0);
      const head = await t.head(`${PRODUCTS}/prd_a1_cola`, KEYS.tenantA).set(headers);
      expect([headers, head.status]).toEqual([headers, 200]);
    }
  });

  it('paths are case-sensitive and strict about a trailing slash: any other spelling is an unknown path', async () => {
    for (const path of [
      '/V1/CATALOG/PRODUCTS',
      '/V1/catalog/products',
      '/v1/Catalog/products',
      `${PRODUCTS}/`,
      `${PRODUCTS}/prd_a1_cola/`,
      '/v1/inventory/stock/',
      '/v1/catalog/categories/',
      '/HEALTH/live',
      '/health/ready/',
    ]) {
      const res = await t.http().get(path).set('Authorization', `Bearer ${KEYS.tenantA}`);
      expect([path, res.status]).toEqual([path, 404]);
      expectEnvelope(res, 'not_found');
    }
    await t.get(`${PRODUCTS}/prd_a1_cola`, KEYS.tenantA).expect(200);
  });

  it('parameters named like JavaScript object members are unknown parameters, not members', async () => {
    const res = await t
      .get(`${PRODUCTS}?pageSize=1&toString=x&constructor=x&__proto__=x&hasOwnProperty=x&valueOf=x`, KEYS.tenantA)
      .expect(400);
    expectEnvelope(res, 'validation_failed');
    expect((res.body.error.details.errors as { name: string }[]).map((e) => e.name).sort()).toEqual([
      '__proto__',
      'constructor',
      'hasOwnProperty',
      'toString',
      'valueOf',
    ]);
  });

  it('a parameter whose percent-escapes are not UTF-8 is a 400 naming it, never read with U+FFFD', async () => {
    const names = async (url: string): Promise<unknown> => {
      const res = await t.get(url, KEYS.tenantA).expect(400);
      expectEnvelope(res, 'validation_failed');
      return res.body.error.details.errors;
    };
    const notUtf8 = (name: string, location = 'query') => ({
      in: location,
      name,
      message: 'must be UTF-8 once percent-decoded',
    });
    expect(await names(`${PRODUCTS}?q=%FF`)).toEqual([notUtf8('q')]);
    // An encoded surrogate and an overlong encoding are not UTF-8 either; every parameter is named.
    expect(await names(`${PRODUCTS}?sku=ab%ED%A0%80&barcode=%C0%AF&storeId=%C3%28&pageSize=2`)).toEqual([
      notUtf8('sku'),
      notUtf8('barcode'),
      notUtf8('storeId'),
    ]);
    expect(await names('/v1/inventory/stock?sku=caf%E9')).toEqual([notUtf8('sku')]);
    // A path parameter that does not decode is refused by name too.
    expect(await names(`${PRODUCTS}/%FF`)).toEqual([
      { in: 'path', name: 'id', message: expect.stringMatching(/^must be an id/) },
    ]);
    // UTF-8 escapes are read as text, and a % that starts no escape stays as it is.
    await t.get(`${PRODUCTS}?q=%C3%A9clair`, KEYS.tenantA).expect(200);
    await t.get(`${PRODUCTS}?q=100%25`, KEYS.tenantA).expect(200);
    await t.get(`${PRODUCTS}?q=100%zz`, KEYS.tenantA).expect(200);
  });

  it('getting one product takes no query parameter: any one is a 400, never silently ignored', async () => {
    const res = await t.get(`${PRODUCTS}/prd_a1_cola?storeId=sto_a2&api_key=x`, KEYS.tenantA).expect(400);
    expectEnvelope(res, 'validation_failed');
    expect(res.body.error.details.errors).toEqual([
      { in: 'query', name: 'storeId', message: 'is not a parameter of this operation' },
      { in: 'query', name: 'api_key', message: 'is not a parameter of this operation' },
    ]);
    const both = await t.get(`${PRODUCTS}/bad%20id?foo=1`, KEYS.tenantA).expect(400);
    expect(both.body.error.details.errors).toEqual([
      { in: 'path', name: 'id', message: expect.stringMatching(/id/) },
      { in: 'query', name: 'foo', message: 'is not a parameter of this operation' },
    ]);
  });

  it('a page past the largest integer a client can read back exactly is a 400, one below it a 200', async () => {
    const res = await t.get(`${PRODUCTS}?page=99999999999999999999999`, KEYS.tenantA).expect(400);
    expect(res.body.error.details.errors).toEqual([
      { in: 'query', name: 'page', message: 'must be a whole number from 1 to 9007199254740991' },
    ]);
    const last = await t.get(`${PRODUCTS}?page=9007199254740991&pageSize=100`, KEYS.tenantA).expect(200);
    expect(last.body.page).toBe(9007199254740991);
    expect(last.body.rows).toEqual([]);
  });

  it('500 is generic: no stack, SQL or driver text, and the request id', async () => {
    await t.db.query('ALTER TABLE products RENAME COLUMN search_text TO search_text_moved');
    try {
      const res = await t.get(`${PRODUCTS}?q=cola`, KEYS.tenantA, { 'X-Request-Id': 'boom-1' });
      expect(res.status).toBe(500);
      expectEnvelope(res, 'internal_error');
      expect(res.body.error.details).toEqual({});
      expect(res.body.error.requestId).toBe('boom-1');
      expect(JSON.stringify(res.body)).not.toMatch(/search_text|column|SELECT|QueryFailed|at /);
    } finally {
      await t.db.query('ALTER TABLE products RENAME COLUMN search_text_moved TO search_text');
    }
  });
});

describe('hardening headers', () => {
  it('every /v1 response has Cache-Control: no-store and nosniff, and no X-Powered-By', async () => {
    for (const res of [
      await t.get(PRODUCTS, KEYS.tenantA),
      await t.get(PRODUCTS),
      await t.get(`${PRODUCTS}?x=1`, KEYS.tenantA),
      await t.http().get(`${PRODUCTS}/`).set('Authorization', `Bearer ${KEYS.tenantA}`),
    ]) {
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
  });

  it('with CORS_ORIGINS: preflights spend no budget, and a 429 is readable by the allowed origin', async () => {
    const cors = await createTestApp({
      dataset: testDataset(),
      env: { CORS_ORIGINS: 'https://shop.example', RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: '1' },
    });
    try {
      const origin = 'https://shop.example';
      for (let i = 0; i < 3; i++) {
        const preflight = await cors
          .http()
          .options(`${PRODUCTS}?page=${i + 1}`)
          .set('Origin', origin)
          .set('Access-Control-Request-Method', 'GET')
          .set('Access-Control-Request-Headers', 'authorization');
        expect(preflight.status).toBe(204);
        expect(preflight.headers['access-control-allow-origin']).toBe(origin);
      }
      await cors.http().get(PRODUCTS).set('Origin', origin).expect(401);
      const limited = await cors.http().get(PRODUCTS).set('Origin', origin);
      expect(limited.status).toBe(429);
      expect(limited.headers['access-control-allow-origin']).toBe(origin);
      expect(limited.headers['access-control-expose-headers']).toContain('Retry-After');
      const other = await cors.http().get(PRODUCTS).set('Origin', 'https://evil.example');
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await cors.close();
    }
  });

  it('sends no CORS headers unless CORS_ORIGINS names origins', async () => {
    const res = await t.get(PRODUCTS, KEYS.tenantA, { Origin: 'https://evil.example' });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});

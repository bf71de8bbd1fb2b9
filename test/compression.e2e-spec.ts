import { request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { CONTENT_CODINGS } from '../src/http/compression.js';
import { KEYS, testDataset } from './support/dataset.js';
import { seededRandom } from './support/sync-harness.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/** One answer as it came off the wire: status, headers and the body's bytes, decoded by nobody. */
interface Raw {
  status: number;
  headers: IncomingHttpHeaders;
  bytes: Buffer;
}

async function listening(t: TestApp): Promise<number> {
  const server = t.app.getHttpServer() as Server;
  if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function raw(port: number, path: string, headers: Record<string, string>, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, bytes: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

const decode = (r: Raw): string => {
  const coding = r.headers['content-encoding'];
  if (coding === undefined) return r.bytes.toString('utf8');
  if (coding === 'gzip') return zlib.gunzipSync(r.bytes).toString('utf8');
  if (coding === 'br') return zlib.brotliDecompressSync(r.bytes).toString('utf8');
  const zstd = (zlib as unknown as { zstdDecompressSync?: (b: Buffer) => Buffer }).zstdDecompressSync;
  if (coding === 'zstd' && zstd) return zstd(r.bytes).toString('utf8');
  throw new Error(`unexpected coding ${coding}`);
};

const AUTH = { Authorization: `Bearer ${KEYS.tenantA}` };
const PAGE = '/v1/catalog/products?pageSize=100&activeOnly=false';

describe('compression of JSON answers', () => {
  let t: TestApp;
  let port: number;
  let identity: Raw;
  beforeAll(async () => {
    t = await createTestApp({ dataset: testDataset() });
    port = await listening(t);
    identity = await raw(port, PAGE, AUTH);
  });
  afterAll(async () => t.close());

  it('sends a page as it is without Accept-Encoding, saying that the answer varies with it', () => {
    expect(identity.status).toBe(200);
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.headers.vary).toMatch(/Accept-Encoding/);
    expect(Number(identity.headers['content-length'])).toBe(identity.bytes.length);
    expect(identity.bytes.length).toBeGreaterThan(t.config.compressionMinBytes);
  });

  // [Accept-Encoding, the coding expected (null: none)]
  it.each([
    ['gzip', 'gzip'],
    ['br', 'br'],
    ['gzip, br', 'br'],
    ['br, gzip', 'br'],
    ['gzip, deflate', 'gzip'],
    ['br;q=0.5, gzip', 'gzip'],
    ['gzip;q=0.2, br;q=0.1', 'gzip'],
    ['*', 'br'],
    ['*;q=0.5, br;q=0', 'gzip'],
    ['GZIP', 'gzip'],
    ['identity', null],
    ['deflate', null],
    ['zstd;q=0, compress', null],
    ['br;q=0, gzip;q=0', null],
    ['*;q=0', null],
    ['gzip;q=0, br;q=0, identity;q=0', null],
    ['', null],
  ])('Accept-Encoding "%s" gets %s, the same JSON, with Vary', async (accept, coding) => {
    const r = await raw(port, PAGE, { ...AUTH, 'Accept-Encoding': accept });
    expect(r.status).toBe(200);
    expect(r.headers['content-encoding'] ?? null).toBe(coding);
    expect(r.headers.vary).toMatch(/Accept-Encoding/);
    expect(Number(r.headers['content-length'])).toBe(r.bytes.length);
    expect(decode(r)).toBe(identity.bytes.toString('utf8'));
    if (coding !== null) expect(r.bytes.length).toBeLessThan(identity.bytes.length / 5);
  });

  it('answers generated Accept-Encoding headers as a reading of RFC 9110 written here says (COMPRESSION_SEED)', async () => {
    const seed = Number(process.env.COMPRESSION_SEED ?? Math.floor(Math.random() * 2 ** 31));
    const random = seededRandom(seed);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
    const names = ['br', 'gzip', 'zstd', 'identity', '*', 'deflate', 'x-gzip', 'BR', 'GZip', 'Identity'];
    const qs = [null, '0', '0.0', '0.001', '0.5', '0.50', '1', '1.000'];
    const spaces = ['', ' ', '  ', '\t'];
    const mismatches: string[] = [];
    for (let n = 0; n < 80; n++) {
      const entries = Array.from({ length: Math.floor(random() * 5) }, () => {
        const q = pick(qs);
        return { name: pick(names), q, text: '' };
      }).map((e) => ({ ...e, text: e.q === null ? e.name : `${e.name}${pick(spaces)};${pick(spaces)}q=${e.q}` }));
      const header = entries.map((e) => e.text).join(`${pick(spaces)},${pick(spaces)}`);
      const expected = reference(
        entries.map((e) => ({ name: e.name.toLowerCase(), q: e.q === null ? 1 : Number(e.q) })),
      );
      const res = await raw(port, PAGE, { ...AUTH, 'Accept-Encoding': header });
      const got = res.headers['content-encoding'] ?? 'identity';
      const sameBody = decode(res) === identity.bytes.toString('utf8');
      const varies = /Accept-Encoding/.test(String(res.headers.vary));
      const length = Number(res.headers['content-length']) === res.bytes.length;
      if (got !== expected || !sameBody || !varies || !length)
        mismatches.push(`${JSON.stringify(header)}: ${got} (expected ${expected}), same body ${sameBody}`);
    }
    expect([`COMPRESSION_SEED=${seed}`, mismatches]).toEqual([`COMPRESSION_SEED=${seed}`, []]);
  });

  it('answers HEAD with the headers GET would send', async () => {
    for (const accept of ['gzip, br', 'gzip', 'identity']) {
      const get = await raw(port, PAGE, { ...AUTH, 'Accept-Encoding': accept });
      const head = await raw(port, PAGE, { ...AUTH, 'Accept-Encoding': accept }, 'HEAD');
      expect(head.bytes.length).toBe(0);
      for (const name of ['content-encoding', 'content-length', 'vary', 'content-type', 'link']) {
        expect([accept, name, head.headers[name]]).toEqual([accept, name, get.headers[name]]);
      }
    }
  });

  it('sends small bodies as they are: one product, an error', async () => {
    const one = await raw(port, '/v1/catalog/products/prd_a1_cola', { ...AUTH, 'Accept-Encoding': 'gzip, br' });
    expect(one.status).toBe(200);
    expect(one.bytes.length).toBeLessThan(t.config.compressionMinBytes);
    expect(one.headers['content-encoding']).toBeUndefined();
    const error = await raw(port, '/v1/catalog/products?pageSize=0', { ...AUTH, 'Accept-Encoding': 'gzip, br' });
    expect(error.status).toBe(400);
    expect(error.headers['content-encoding']).toBeUndefined();
  });

  it('compresses the other lists too: stock, categories and promotions', async () => {
    for (const path of ['/v1/inventory/stock?pageSize=100&activeOnly=false', '/v1/catalog/categories']) {
      const plain = await raw(port, path, AUTH);
      const br = await raw(port, path, { ...AUTH, 'Accept-Encoding': 'br' });
      expect([path, br.status]).toEqual([path, 200]);
      if (plain.bytes.length >= t.config.compressionMinBytes) expect(br.headers['content-encoding']).toBe('br');
      expect(decode(br)).toBe(plain.bytes.toString('utf8'));
    }
    const promotions = await raw(port, '/v1/catalog/promotions', { ...AUTH, 'Accept-Encoding': 'gzip' });
    expect(promotions.status).toBe(200);
    expect(promotions.headers.vary).toMatch(/Accept-Encoding/);
    expect(JSON.parse(decode(promotions))).toEqual(
      JSON.parse((await raw(port, '/v1/catalog/promotions', AUTH)).bytes.toString('utf8')),
    );
  });
});

describe('with COMPRESSION_ENABLED=false (an ingress compresses)', () => {
  let t: TestApp;
  afterAll(async () => t.close());

  it('sends every answer as it is', async () => {
    t = await createTestApp({ dataset: testDataset(), env: { COMPRESSION_ENABLED: 'false' } });
    const port = await listening(t);
    const r = await raw(port, PAGE, { ...AUTH, 'Accept-Encoding': 'gzip, br' });
    expect(r.status).toBe(200);
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(r.headers.vary ?? '').not.toMatch(/Accept-Encoding/);
  });
});

describe('zstd', () => {
  let t: TestApp;
  afterAll(async () => t.close());

  it('is offered exactly where this Node.js can write it', async () => {
    t = await createTestApp({ dataset: testDataset() });
    const port = await listening(t);
    const r = await raw(port, PAGE, { ...AUTH, 'Accept-Encoding': 'zstd' });
    const hasZstd = typeof (zlib as unknown as Record<string, unknown>).zstdCompressSync === 'function';
    expect(CONTENT_CODINGS.includes('zstd')).toBe(hasZstd);
    expect(r.headers['content-encoding'] ?? null).toBe(hasZstd ? 'zstd' : null);
  });
});

/**
 * The coding a page must come in, read from RFC 9110 (section 12.5.3) independently of the service:
 * a coding's weight is its own entry's (the highest if repeated), else `*`'s; identity not named is
 * acceptable at the lowest weight named (q=0 counting as 1 there, as negotiator counts it). The
 * service's codings, then identity, break ties in that order; nothing acceptable is identity too.
 */
function reference(entries: { name: string; q: number }[]): string {
  const weight = (coding: string): number => {
    const own = entries.filter((e) => e.name === coding).map((e) => e.q);
    if (own.length > 0) return Math.max(...own);
    const star = entries.filter((e) => e.name === '*').map((e) => e.q);
    if (star.length > 0) return Math.max(...star);
    if (coding === 'identity') return Math.min(1, ...entries.map((e) => e.q || 1));
    return 0;
  };
  let best = 'identity';
  let bestQ = 0;
  for (const coding of [...CONTENT_CODINGS, 'identity']) {
    const q = weight(coding);
    if (q > bestQ) [best, bestQ] = [coding, q];
  }
  return best;
}

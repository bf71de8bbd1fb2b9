import type { Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { KEYS, testDataset } from './support/dataset.js';
import { expectRawEnvelope } from './support/raw-http.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * What the service does with a connection, on raw sockets: requests pipelined before a malformed one
 * are answered in order, and no connection is held once its request stops arriving.
 */
let t: TestApp;
beforeAll(async () => {
  // Small timeouts, so that a stalled request is given up within a second or two.
  t = await createTestApp({
    dataset: testDataset(),
    env: { HTTP_HEADERS_TIMEOUT_MS: '1000', HTTP_REQUEST_TIMEOUT_MS: '1500' },
  });
});
afterAll(async () => t.close());

const PRODUCTS = '/v1/catalog/products';
/** Far beyond the timeouts above: a reply after this is a connection held, and the test fails. */
const GENEROUS_MS = 15_000;

interface Reply {
  status: number;
  head: string;
  body: string;
}

interface Exchange {
  /** Every response, in the order the bytes came. */
  replies: Reply[];
  /** Whether the server closed the connection (false: it was still open after GENEROUS_MS). */
  closed: boolean;
}

async function port(): Promise<number> {
  const server = t.app.getHttpServer() as Server;
  if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** Writes the bytes in one write and reads until the server closes the connection (or GENEROUS_MS). */
async function exchange(raw: Buffer): Promise<Exchange> {
  const p = await port();
  const { bytes, closed } = await new Promise<{ bytes: Buffer; closed: boolean }>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let timedOut = false;
    // Not half-closed: Node would abort a request whose client has ended its side.
    const socket = connect(p, '127.0.0.1', () => socket.write(raw));
    socket
      .setTimeout(GENEROUS_MS, () => {
        timedOut = true;
        socket.destroy();
      })
      .on('data', (c: Buffer) => chunks.push(c))
      .on('close', () => resolve({ bytes: Buffer.concat(chunks), closed: !timedOut }))
      .on('error', reject);
  });
  return { replies: parseReplies(bytes), closed };
}

/** Splits a byte stream into responses (Content-Length bodies: all this service sends). */
function parseReplies(bytes: Buffer): Reply[] {
  const replies: Reply[] = [];
  let rest = bytes;
  while (rest.length > 0) {
    const headEnd = rest.indexOf('\r\n\r\n');
    if (headEnd === -1) throw new Error(`an incomplete response head: ${rest.toString('latin1')}`);
    const head = rest.subarray(0, headEnd).toString('latin1');
    const length = Number(/^Content-Length: (\d+)$/im.exec(head)?.[1] ?? 0);
    if (rest.length < headEnd + 4 + length) throw new Error(`an incomplete response body after ${head}`);
    replies.push({
      status: Number(head.split(' ')[1]),
      head,
      body: rest.subarray(headEnd + 4, headEnd + 4 + length).toString('utf8'),
    });
    rest = rest.subarray(headEnd + 4 + length);
  }
  return replies;
}

const get = (path: string): string =>
  `GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEYS.tenantA}\r\n\r\n`;

describe('pipelined requests before a malformed one', () => {
  const malformed: Record<string, Buffer> = {
    'a line that is not HTTP': Buffer.from('GARBAGE\r\n\r\n'),
    'a bad Content-Length': Buffer.from(`GET ${PRODUCTS} HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n`),
    'a raw 0xFF byte in the request line': Buffer.concat([
      Buffer.from(`GET ${PRODUCTS}?q=`),
      Buffer.from([0xff]),
      Buffer.from(' HTTP/1.1\r\nHost: x\r\n\r\n'),
    ]),
    'a raw 0xFF byte in a header name': Buffer.concat([
      Buffer.from(`GET ${PRODUCTS} HTTP/1.1\r\nHost: x\r\nX-`),
      Buffer.from([0xff]),
      Buffer.from(': 1\r\n\r\n'),
    ]),
  };

  it.each(Object.keys(malformed))(
    'are all answered first, in order, then the 400, then the connection closes: %s',
    async (kind) => {
      // Several runs, and one to three valid requests before the bad one: the order must never vary.
      for (let run = 0; run < 5; run++) {
        const valid = [`${PRODUCTS}/prd_a1_cola`, `${PRODUCTS}?pageSize=1`, '/health/live'].slice(0, 1 + (run % 3));
        const { replies, closed } = await exchange(
          Buffer.concat([...valid.map((path) => Buffer.from(get(path))), malformed[kind]]),
        );
        expect(replies.map((r) => r.status)).toEqual([...valid.map(() => 200), 400]);
        valid.forEach((path, i) => {
          expect(replies[i].head).not.toMatch(/^Connection: close$/im);
          // The whole body, as a single request for it gets.
          expect(() => JSON.parse(replies[i].body) as unknown).not.toThrow();
          if (path.includes('prd_a1_cola')) expect(JSON.parse(replies[i].body).id).toBe('prd_a1_cola');
        });
        const refusal = replies[replies.length - 1];
        expectRawEnvelope(refusal, 'validation_failed');
        expect(refusal.head).toMatch(/^Connection: close$/im);
        expect(closed).toBe(true);
      }
    },
  );
});

describe('a request that stops arriving', () => {
  it('a GET that declares a body and never sends it is answered with the 400 envelope, and closed', async () => {
    const { replies, closed } = await exchange(
      Buffer.from(
        `GET ${PRODUCTS} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEYS.tenantA}\r\nContent-Length: 10\r\n\r\n`,
      ),
    );
    expect(closed).toBe(true);
    expect(replies.map((r) => r.status)).toEqual([400]);
    expectRawEnvelope(replies[0], 'validation_failed');
    expect(JSON.parse(replies[0].body).error.message).toMatch(/body/);
    expect(replies[0].head).toMatch(/^Connection: close$/im);
    // Answered like any /v1 request: it has spent from its client's budget.
    expect(replies[0].head).toMatch(/^RateLimit-Policy: "per-client"/m);
  });

  it('a chunked body that stops half-way is answered the same way', async () => {
    const { replies, closed } = await exchange(
      Buffer.from(
        `GET ${PRODUCTS} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEYS.tenantA}\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab`,
      ),
    );
    expect(closed).toBe(true);
    expect(replies.map((r) => r.status)).toEqual([400]);
    expectRawEnvelope(replies[0], 'validation_failed');
  });

  it('a malformed chunk is answered by its own request, after the requests before it', async () => {
    const chunked = `GET ${PRODUCTS} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEYS.tenantA}\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const { replies, closed } = await exchange(
      Buffer.from(`${get(`${PRODUCTS}/prd_a1_cola`)}${chunked}2\r\nab\r\nZZ\r\n`),
    );
    expect(closed).toBe(true);
    expect(replies.map((r) => r.status)).toEqual([200, 400]);
    expectRawEnvelope(replies[1], 'validation_failed');
    expect(replies[1].head).toMatch(/^Connection: close$/im);
  });

  it('headers that stop coming get the 400 envelope, after the answers to the requests before them', async () => {
    const partial = `GET ${PRODUCTS} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer`;
    const alone = await exchange(Buffer.from(partial));
    expect(alone.closed).toBe(true);
    expect(alone.replies.map((r) => r.status)).toEqual([400]);
    expectRawEnvelope(alone.replies[0], 'validation_failed');
    expect(JSON.parse(alone.replies[0].body).error.message).toMatch(/headers/);

    const after = await exchange(Buffer.from(get(`${PRODUCTS}/prd_a1_cola`) + partial));
    expect(after.closed).toBe(true);
    expect(after.replies.map((r) => r.status)).toEqual([200, 400]);
    expect(JSON.parse(after.replies[0].body).id).toBe('prd_a1_cola');
  });

  it('a connection that never sends a byte is closed without an answer', async () => {
    const { replies, closed } = await exchange(Buffer.alloc(0));
    expect(closed).toBe(true);
    expect(replies).toEqual([]);
  });

  it('the service keeps serving', async () => {
    await t.get(`${PRODUCTS}/prd_a1_cola`, KEYS.tenantA).expect(200);
  });
});

describe('the Host header', () => {
  it('two Host headers are a 400 envelope, whatever their values and spelling; one is served', async () => {
    for (const hosts of [
      ['a.example', 'b.example'],
      ['x', 'x'],
    ]) {
      const { replies } = await exchange(
        Buffer.from(
          `GET ${PRODUCTS} HTTP/1.1\r\nHost: ${hosts[0]}\r\nAuthorization: Bearer ${KEYS.tenantA}\r\n` +
            `HOST: ${hosts[1]}\r\nConnection: close\r\n\r\n`,
        ),
      );
      expect(replies.map((r) => r.status)).toEqual([400]);
      expectRawEnvelope(replies[0], 'validation_failed');
      expect(JSON.parse(replies[0].body).error.message).toMatch(/Host/);
      expect(replies[0].head).toMatch(/^RateLimit-Policy: "per-client"/m);
    }
    const { replies } = await exchange(
      Buffer.from(
        `GET ${PRODUCTS} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEYS.tenantA}\r\nConnection: close\r\n\r\n`,
      ),
    );
    expect(replies.map((r) => r.status)).toEqual([200]);
  });

  it('a Host value that is not one host (a list a proxy joined, spaces, a path) is a 400; host, port and IPs are served', async () => {
    const served = async (host: string): Promise<number> => {
      const { replies } = await exchange(
        Buffer.from(
          `GET ${PRODUCTS} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${KEYS.tenantA}\r\nConnection: close\r\n\r\n`,
        ),
      );
      if (replies[0].status === 400) expect(JSON.parse(replies[0].body).error.message).toMatch(/Host/);
      return replies[0].status;
    };
    for (const host of ['a, b', 'a,b', 'a b', 'a/b', 'a@b', 'x:80:81', 'x:port'])
      expect([host, await served(host)]).toEqual([host, 400]);
    for (const host of ['x', 'api.example.com:8443', '127.0.0.1:3000', '[::1]:3000', 'xn--bcher-kva.example'])
      expect([host, await served(host)]).toEqual([host, 200]);
  });
});

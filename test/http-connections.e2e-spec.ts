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
    // A timeout is charged to the connection's address, as invalid HTTP is (a FIN is not: below).
    expect(alone.replies[0].head).toMatch(/^RateLimit: "per-ip";r=\d+;/m);

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

/**
 * One connection from `localAddress` (a loopback address of its own: its own address budget) that
 * writes `raw`, waits for `answers` responses, then ends its side (FIN); everything the server sent
 * until it closed the connection.
 */
async function sendThenEnd(localAddress: string, raw: string, answers = 0): Promise<Exchange> {
  const p = await port();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let timedOut = false;
    const socket = connect({ port: p, host: '127.0.0.1', localAddress }, () => {
      socket.write(raw);
      if (answers === 0) socket.end();
    });
    socket
      .setTimeout(GENEROUS_MS, () => {
        timedOut = true;
        socket.destroy();
      })
      .on('data', (c: Buffer) => {
        chunks.push(c);
        if (answers > 0 && parseReplies(Buffer.concat(chunks)).length === answers) socket.end();
      })
      .on('close', () => resolve({ replies: parseReplies(Buffer.concat(chunks)), closed: !timedOut }))
      .on('error', reject);
  });
}

/** What is left of the address's budget (60 a minute here), as a request without a key from it is told. */
async function addressBudgetLeft(localAddress: string): Promise<string | undefined> {
  const { replies } = await sendThenEnd(
    localAddress,
    `GET ${PRODUCTS} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
  );
  expect(replies.map((r) => r.status)).toEqual([401]);
  return /^RateLimit: "per-ip";r=(\d+);/m.exec(replies[0].head)?.[1];
}

describe('a client that ends its side in the middle of a request', () => {
  // What a client that gives up sends: cut anywhere before the request is complete, then FIN. Node
  // reports each as HPE_INVALID_EOF_STATE (Node 20 and 26): not invalid HTTP, the client going away.
  // `answers`: the FIN waits for that many answers; `complete`: the complete requests before the cut.
  const cut: Record<string, { raw: string; answers: number; complete: number }> = {
    'the request line cut short': { raw: 'GET /v1/catalog/pro', answers: 0, complete: 0 },
    'the request line whole, no header': { raw: `GET ${PRODUCTS} HTTP/1.1\r\n`, answers: 0, complete: 0 },
    'the headers cut short (a valid key among them)': {
      raw: `GET ${PRODUCTS} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEYS.tenantA}\r\nAccept: app`,
      answers: 0,
      complete: 0,
    },
    'a complete request, then the next one cut short, FIN once the first is answered': {
      raw: `${get(`${PRODUCTS}/prd_a1_cola`)}GET ${PRODUCTS} HTTP/1.1\r\nHost: x\r\n`,
      answers: 1,
      complete: 1,
    },
    'a complete request, then the next one cut short, FIN at once': {
      raw: `${get(`${PRODUCTS}/prd_a1_cola`)}GE`,
      answers: 0,
      complete: 1,
    },
  };

  it.each(Object.entries(cut).map(([name, c], i) => [name, c, i] as const))(
    'is charged nothing and answered nothing but the complete requests before it: %s',
    async (_name, { raw, answers, complete }, i) => {
      const address = `127.0.91.${i + 1}`;
      const runs: { statuses: number[]; closed: boolean }[] = [];
      for (let n = 0; n < 3; n++) {
        const { replies, closed } = await sendThenEnd(address, raw, answers);
        runs.push({ statuses: replies.map((r) => r.status), closed });
      }
      // The complete request before the cut one is answered, in full, and nothing else; only the
      // request that asks spends from the address's budget (before, each cut one was answered 400 and
      // charged, and 65 of them left a valid key from the address refused 429 per-ip for a minute).
      expect({ runs, budgetLeft: await addressBudgetLeft(address) }).toEqual({
        runs: Array(3).fill({ statuses: Array(complete).fill(200), closed: true }),
        budgetLeft: '59',
      });
      const valid = await sendThenEnd(address, get(`${PRODUCTS}/prd_a1_cola`), 1);
      expect(valid.replies.map((r) => r.status)).toEqual([200]);
    },
  );

  it('a GET whose declared body is cut short by FIN is answered nothing, and charged nothing at the address', async () => {
    const address = '127.0.91.100';
    const { replies, closed } = await sendThenEnd(
      address,
      `GET ${PRODUCTS} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEYS.tenantA}\r\nContent-Length: 100\r\n\r\n0123456789`,
    );
    // Before, it was answered 400 "not valid HTTP" (its client's budget spent, as for any request).
    expect({ statuses: replies.map((r) => r.status), closed, budgetLeft: await addressBudgetLeft(address) }).toEqual({
      statuses: [],
      closed: true,
      budgetLeft: '59',
    });
  });

  it('invalid HTTP then FIN is still charged to the address and answered 400', async () => {
    const address = '127.0.91.200';
    const { replies } = await sendThenEnd(address, 'GARBAGE\r\n\r\n');
    expect(replies.map((r) => r.status)).toEqual([400]);
    expectRawEnvelope(replies[0], 'validation_failed');
    expect(replies[0].head).toMatch(/^RateLimit: "per-ip";r=59;/m);
    expect(await addressBudgetLeft(address)).toBe('58');
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

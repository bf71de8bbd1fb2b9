import http, { type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { boundRequests, gateClientOf } from './pipeline-depth.js';

const request = (authorization?: string, remoteAddress = '10.0.0.7', url = '/v1/catalog/products'): IncomingMessage =>
  ({ url, headers: authorization === undefined ? {} : { authorization }, socket: { remoteAddress } }) as never;

/** What the key cache knows: two keys of client c1, one of c2 (by the header as sent, for the test). */
const known = (req: IncomingMessage): string | undefined =>
  ({ 'Bearer k1': 'c1', 'bearer k1': 'c1', 'BEARER k1': 'c1', 'Bearer k1b': 'c1', 'Bearer k2': 'c2' })[
    req.headers.authorization!
  ];

describe('gateClientOf', () => {
  it('counts a key known valid as its API client, whatever key of it and however Bearer is spelled', () => {
    const names = ['Bearer k1', 'bearer k1', 'BEARER k1', 'Bearer k1b'].map((h) => gateClientOf(request(h), known));
    expect(new Set(names)).toEqual(new Set(['client c1']));
    expect(gateClientOf(request('Bearer k2'), known)).toBe('client c2');
  });

  it('counts anything else by its address: junk, keys not known valid, no credential', () => {
    // Credentials cost nothing to invent: 300 of them from one address are one client, not 300.
    const junk = ['Basic abc', 'Bearer ck_test_unknownKey000000000000000000000001', 'x'.repeat(50), 'Bearer'];
    expect(new Set(junk.map((h) => gateClientOf(request(h), known)))).toEqual(new Set(['address 10.0.0.7']));
    expect(gateClientOf(request())).toBe('address 10.0.0.7');
    expect(gateClientOf(request('Bearer k1'))).toBe('address 10.0.0.7');
    expect(gateClientOf(request('Basic abc', '10.0.0.8'), known)).toBe('address 10.0.0.8');
  });

  it('reads no key outside /v1: a probe, /metrics or /docs is counted by its address, its key known or not', () => {
    const read: string[] = [];
    const reading = (req: IncomingMessage) => (read.push(req.url!), known(req));
    const elsewhere = ['/health/live', '/health/ready', '/metrics', '/docs/', '/', '/v10', '/v1x/a', '/V1/catalog'];
    for (const url of elsewhere)
      expect(gateClientOf(request('Bearer k1', '10.0.0.7', url), reading)).toBe('address 10.0.0.7');
    expect(read).toEqual([]);
    // Under /v1, and an absolute-form target (not parsed before Express), the key names its client.
    // Not plainly written (absolute form, `\` or `#`, which Express routes by their parsed path): read.
    const v1 = [
      '/v1',
      '/v1/',
      '/v1?pageSize=1',
      '/v1/catalog/products/p1',
      'http://api.example/health/live',
      '/v1\\catalog\\products#x',
      '/health\\live',
      '/metrics#x',
    ];
    for (const url of v1) expect(gateClientOf(request('Bearer k1', '10.0.0.7', url), reading)).toBe('client c1');
    expect(read).toEqual(v1);
  });
});

describe('boundRequests', () => {
  it("leaves Node's own _paused field on a connection none of whose requests was held", async () => {
    // An accessor in its place on every socket cost every request about 19 µs of CPU on Node 26.
    const server = http.createServer();
    const connections: Socket[] = [];
    server.on('connection', (socket: Socket) => connections.push(socket));
    let finishSlow: () => void = () => undefined;
    let slowStarted = false;
    server.on('request', (req: IncomingMessage, res: http.ServerResponse) => {
      if (req.url !== '/slow') return void res.end('ok');
      slowStarted = true;
      finishSlow = () => res.end('slow');
    });
    boundRequests(server, { perConnection: 1, perClient: 1, total: 1 }, () => 'one client');
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const get = (path: string, agent: http.Agent): Promise<string> =>
      new Promise((resolve, reject) =>
        http
          .get({ port, host: '127.0.0.1', path, agent }, (res) => {
            let body = '';
            res.on('data', (chunk: Buffer) => (body += chunk.toString()));
            res.on('end', () => resolve(body));
          })
          .on('error', reject),
      );
    const field = (socket: Socket) => Object.getOwnPropertyDescriptor(socket, '_paused');
    // Polls `done` for up to 2 s: a state that never comes fails here, not as the test's timeout.
    const until = async (done: () => boolean): Promise<void> => {
      for (const start = Date.now(); !done(); await new Promise((r) => setTimeout(r, 5)))
        if (Date.now() - start > 2000) throw new Error('the state waited for did not come within 2 s');
    };
    const a = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const b = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      expect(await get('/fast', a)).toBe('ok');
      expect(field(connections[0])).toEqual(expect.objectContaining({ value: false, writable: true }));
      // The process's one place is taken on connection a: connection b's request is held until it ends.
      const slow = get('/slow', a);
      await until(() => slowStarted);
      const held = get('/fast', b);
      // Held: b's socket was made holdable (its request waits for a's).
      await until(() => connections.length === 2 && field(connections[1])?.get !== undefined);
      expect(field(connections[1])?.get).toBeInstanceOf(Function);
      finishSlow();
      expect(await slow).toBe('slow');
      expect(await held).toBe('ok');
      // The connection that was held is read again once its request started.
      expect(await get('/fast', b)).toBe('ok');
      expect(connections).toHaveLength(2);
      expect(field(connections[0])).toEqual(expect.objectContaining({ value: false, writable: true }));
    } finally {
      a.destroy();
      b.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

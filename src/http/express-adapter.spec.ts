import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { PrototypeReadyExpressAdapter } from './express-adapter.js';

/**
 * The adapter's server makes requests and responses with Express's prototypes already in place, so
 * that Express's own Object.setPrototypeOf changes nothing (docs/performance.md: with the change,
 * a third of what a request allocates outlived the young generation on Node 20). What Express does
 * with them must not change: its request and response methods work, as on Nest's own adapter.
 */
describe('PrototypeReadyExpressAdapter', () => {
  const serve = async (
    adapter: PrototypeReadyExpressAdapter,
    options: Parameters<PrototypeReadyExpressAdapter['initHttpServer']>[0] = {},
  ): Promise<{ server: http.Server; seen: { req: object; res: object }[]; base: string }> => {
    adapter.initHttpServer(options);
    const server = adapter.getHttpServer() as http.Server;
    const seen: { req: object; res: object }[] = [];
    // Before Express's handler: the prototypes Node's server gave them.
    server.prependListener('request', (req: object, res: object) =>
      seen.push({ req: Object.getPrototypeOf(req) as object, res: Object.getPrototypeOf(res) as object }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { server, seen, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  };

  const appWithRoute = (): ReturnType<typeof express> => {
    const app = express();
    app.get('/p', (req, res) => {
      res.set('X-Path', req.path).status(201).json({ query: req.query.a, host: req.hostname });
    });
    return app;
  };

  it("gives Node's requests and responses Express's prototypes before Express takes them", async () => {
    const app = appWithRoute();
    const { server, seen, base } = await serve(new PrototypeReadyExpressAdapter(app, true));
    try {
      for (let n = 0; n < 3; n++) {
        const res = await fetch(`${base}/p?a=${n}`);
        expect(res.status).toBe(201);
        expect(res.headers.get('x-path')).toBe('/p');
        expect(await res.json()).toEqual({ query: String(n), host: '127.0.0.1' });
      }
      expect(seen).toHaveLength(3);
      for (const { req, res } of seen) {
        expect(req).toBe(app.request);
        expect(res).toBe(app.response);
      }
    } finally {
      server.close();
    }
  });

  it.each([
    ['not asked to (Node 24 and later)', false, {}],
    ['given options it does not build (HTTPS, 503 on closing, forced closes)', true, { forceCloseConnections: true }],
  ] as const)("takes Nest's own server when %s", async (_, prepareObjects, options) => {
    const app = appWithRoute();
    const { server, seen } = await serve(new PrototypeReadyExpressAdapter(app, prepareObjects), options);
    try {
      const address = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${address.port}/p?a=x`);
      expect(res.status).toBe(201);
      // Node's own classes: Express sets its prototypes itself, after this listener.
      expect(seen[0].req).toBe(http.IncomingMessage.prototype);
    } finally {
      server.close();
    }
  });
});

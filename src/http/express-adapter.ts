import http from 'node:http';
import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type express from 'express';

type Express = ReturnType<typeof express>;
type Constructor = abstract new (...args: never[]) => object;

/**
 * Nest's Express adapter with one difference, where `prepareObjects` says it pays (on Node before
 * 24: src/startup/node-version.ts; a bare Express application answering a constant, CPU per request
 * with Node's own classes / with the prototypes in place: Node 20 92–118 / 26–35 µs, Node 22 95 / 33,
 * Node 24 29 / 38 to 75, Node 26 23 / 29; from Node 24 on V8 changes a prototype cheaply):
 * Node's HTTP server makes each request and response with Express's prototypes (`app.request`,
 * `app.response`) already in place, by the server's own `IncomingMessage` and `ServerResponse` options.
 *
 * Express gives every request and response its prototypes with `Object.setPrototypeOf` as it takes
 * them. On Node 20 that change of prototype made about a third of everything a request allocates
 * survive the young generation (measured with --trace-gc-nvp: 2.8–4 MB promoted per scavenge, none
 * without it), and the collections it caused were most of the framework's cost per request: a bare
 * Express application answering a constant spent 118 µs of CPU per request, 35 µs with the
 * prototypes in place, against 22 µs for `node:http` alone (docs/performance.md). Express's own
 * `setPrototypeOf` still runs and changes nothing, as the prototype is already the one it sets.
 */
export class PrototypeReadyExpressAdapter extends ExpressAdapter {
  constructor(
    instance: Express,
    private readonly prepareObjects: boolean,
  ) {
    super(instance);
  }

  override initHttpServer(options: NestApplicationOptions): void {
    const app = this.getInstance<Express>();
    const IncomingMessage = withPrototype(http.IncomingMessage, app.request);
    const ServerResponse = withPrototype(http.ServerResponse<http.IncomingMessage>, app.response);
    // What else Nest's adapter would do here the service uses none of (plain HTTP behind the
    // cluster's ingress); with any of it, on a Node that changes prototypes cheaply, or one whose
    // classes cannot be called so: Nest's way.
    if (
      !this.prepareObjects ||
      IncomingMessage === null ||
      ServerResponse === null ||
      options?.httpsOptions ||
      options?.return503OnClosing ||
      options?.forceCloseConnections
    ) {
      super.initHttpServer(options);
      return;
    }
    this.httpServer = http.createServer({ IncomingMessage, ServerResponse }, app);
  }
}

/**
 * A constructor Node's server can call with `new`, making instances of `base` whose prototype is
 * `prototype` (itself derived from `base.prototype`, as Express's are); null where `base` is a class.
 * It runs `base` as a function on the object `new` made, as Node's own constructors (functions, not
 * classes) call their parents: Reflect.construct with another new.target gave every request a map
 * of its own (170 µs a request for a bare Express application, measured).
 */
function withPrototype<C extends Constructor>(base: C, prototype: object): C | null {
  if (!(prototype instanceof base) || /^class\b/.test(Function.prototype.toString.call(base))) return null;
  const init = base as unknown as (this: object, a: unknown, b: unknown) => void;
  function Prepared(this: object, a: unknown, b: unknown): void {
    init.call(this, a, b);
  }
  Prepared.prototype = prototype;
  return Prepared as unknown as C;
}

import type { Server } from 'node:http';
import { type ExpressAdapter, type NestExpressApplication } from '@nestjs/platform-express';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { boundRequests, gateClientOf, shedOf } from './admission/pipeline-depth.js';
import { CallerResolver } from './auth/caller-resolver.js';
import type { AppConfig } from './config/app-config.js';
import { DatabaseBusyError, DatabaseOverloadedError } from './database/deadline.js';
import { RETRY_AFTER_SECONDS } from './database/sql-reader.js';
import {
  bodyLimitMiddleware,
  hardeningMiddleware,
  isV1Request,
  undecodablePathMiddleware,
} from './http/hardening.middleware.js';
import { answerRequestsNodeWouldRefuse, refuseMalformedRequests } from './http/client-error.js';
import { compose } from './http/compose.js';
import { PrototypeReadyExpressAdapter } from './http/express-adapter.js';
import { NODE_BEFORE_24 } from './startup/node-version.js';
import { ResponseCompression } from './http/compression.js';
import { COMPRESSION_LOCAL } from './http/send-json.js';
import { parseQueryString } from './params/query-string.js';
import { requestIdMiddleware } from './http/request-id.middleware.js';
import { MetricsService } from './observability/metrics.service.js';
import { RateLimitMiddleware } from './rate-limit/rate-limit.middleware.js';
import { requestObserver } from './observability/request-observer.middleware.js';
import { buildOpenApiDocument, setupDocs } from './openapi/openapi-document.js';

/**
 * The Express application under Nest, with routing to the letter: paths are case-sensitive and a
 * trailing slash is part of the path, so `/V1/CATALOG/PRODUCTS` and `/v1/catalog/products/` are
 * unknown paths (404), not aliases. Express's router takes these settings when it is created, which
 * ExpressAdapter's constructor does: they must be set on an instance made beforehand.
 */
export function createHttpAdapter(): ExpressAdapter {
  const instance = express();
  instance.set('case sensitive routing', true);
  instance.set('strict routing', true);
  return new PrototypeReadyExpressAdapter(instance, NODE_BEFORE_24);
}

/**
 * No connection is held by a request that stops arriving: its line and headers must arrive within
 * HTTP_HEADERS_TIMEOUT_MS of its first byte, all of it (a body too) within HTTP_REQUEST_TIMEOUT_MS
 * (Node's defaults: 60 s and 300 s). Node looks for such requests every `connectionsCheckingInterval`
 * ms, an option of `http.createServer` (30 s by default) that it reads when the server starts
 * listening; often enough here that a timeout is applied within a quarter of itself. Node then
 * reports the request as a client error: `answerRequestsNodeWouldRefuse` answers it.
 */
function boundRequestArrival(server: Server, config: AppConfig): void {
  server.headersTimeout = config.httpHeadersTimeoutMs;
  server.requestTimeout = config.httpRequestTimeoutMs;
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = Math.min(
    1000,
    Math.ceil(config.httpHeadersTimeoutMs / 4),
  );
}

/**
 * Everything about the HTTP server that is not a module: shared by main.ts and the tests so that both
 * run the same application. Call before `app.init()`.
 */
export function configureApp(app: NestExpressApplication, config: AppConfig, logger?: Logger): void {
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.set('etag', false);
  if (config.compressionEnabled) app.setLocal(COMPRESSION_LOCAL, new ResponseCompression(config.compressionMinBytes));
  // A query value that is not UTF-8 is refused by name instead of read with U+FFFD in it.
  app.set('query parser', parseQueryString);
  // The contract has no 304: Express's freshness check would turn any answer into a bodiless 304
  // for `If-None-Match: *` (which matches without an ETag), so no request of this app is ever fresh.
  Object.defineProperty((app.getHttpAdapter().getInstance() as Express).request, 'fresh', { get: () => false });
  const rateLimit = app.get(RateLimitMiddleware);
  const callers = app.get(CallerResolver);
  // Around Express alone (the listeners added below see every request as it is parsed).
  boundRequests(
    app.getHttpServer() as Server,
    {
      perConnection: config.httpPipelineDepth,
      perClient: config.httpClientInFlight,
      total: config.httpInFlight,
      holdMs: config.httpHoldMs,
      heldPerConnection: config.httpHeldPerConnection,
      heldTotal: config.httpHeldTotal,
    },
    // A key known valid names its API client (the caller, when known now, is kept for the rate limit).
    (req) => gateClientOf(req, (r) => callers.gateClient(r as Request)),
    // A client that stops reading its answer holds the request's place: its connection is closed.
    config.httpSendTimeoutMs,
  );
  boundRequestArrival(app.getHttpServer() as Server, config);
  answerRequestsNodeWouldRefuse(app.getHttpServer(), (address) => rateLimit.chargeConnection(address));
  app.use(
    compose(
      requestIdMiddleware,
      undecodablePathMiddleware,
      requestObserver(app.get(MetricsService), app.getHttpAdapter().getInstance(), logger, config.docsEnabled),
      hardeningMiddleware,
    ),
  );
  // Before the rate limit: a browser's preflight is answered here without spending a budget, and a
  // 429 or 413 carries the CORS headers that let the page read it.
  if (config.corsOrigins.length > 0) {
    app.enableCors({
      origin: [...config.corsOrigins],
      methods: ['GET', 'HEAD'],
      allowedHeaders: ['Authorization', 'X-Request-Id'],
      exposedHeaders: ['X-Request-Id', 'RateLimit', 'RateLimit-Policy', 'Retry-After', 'Link', 'Sync-Position'],
      maxAge: 600,
    });
  }
  // Every /v1 request, known route or not, spends from a budget before anything can refuse it, so
  // that every /v1 response (413 and malformed paths included) carries the rate-limit headers. The
  // path is read off the raw URL: nothing is decoded here, so no URL can fail before the headers are set.
  const spend = (req: Request, res: Response, next: NextFunction): void =>
    isV1Request(req) ? void rateLimit.use(req, res, next) : next();
  // A request the gate held past HTTP_HOLD_MS (docs/rate-limits.md#overload) is refused here, as a
  // read refused admission is (the same errors, so the same envelope, request id and Retry-After,
  // counted in the same metrics), and before the budget: spending it needs the key lookup, a
  // database read or a Redis round trip, which a request refused for load must not cost.
  const metrics = app.get(MetricsService);
  const refuseShed = (req: Request, _res: Response, next: NextFunction): void => {
    const shed = shedOf(req);
    // Only /v1 reads are refused: a liveness or readiness probe answered 503 for load would have
    // Kubernetes restart, or take out of service, a pod that is merely busy (and make it busier);
    // probes and /metrics are answered, at the cost of no database read.
    if (shed === undefined || !isV1Request(req)) return next();
    metrics.countAdmissionRefused(shed);
    next(
      shed === 'client' ? new DatabaseBusyError(RETRY_AFTER_SECONDS) : new DatabaseOverloadedError(RETRY_AFTER_SECONDS),
    );
  };
  app.use(compose(refuseShed, spend, refuseMalformedRequests, bodyLimitMiddleware(config.bodyLimitBytes)));
  if (config.docsEnabled) setupDocs(app, buildOpenApiDocument(app), config.appEnv);
}

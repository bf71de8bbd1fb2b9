import { ExpressAdapter, type NestExpressApplication } from '@nestjs/platform-express';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import type { AppConfig } from './config/app-config.js';
import {
  bodyLimitMiddleware,
  hardeningMiddleware,
  isV1Request,
  undecodablePathMiddleware,
} from './http/hardening.middleware.js';
import { answerRequestsNodeWouldRefuse, refuseMalformedRequests } from './http/client-error.js';
import { compose } from './http/compose.js';
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
  return new ExpressAdapter(instance);
}

/**
 * Everything about the HTTP server that is not a module: shared by main.ts and the tests so that both
 * run the same application. Call before `app.init()`.
 */
export function configureApp(app: NestExpressApplication, config: AppConfig, logger?: Logger): void {
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.set('etag', false);
  // The contract has no 304: Express's freshness check would turn any answer into a bodiless 304
  // for `If-None-Match: *` (which matches without an ETag), so no request of this app is ever fresh.
  Object.defineProperty((app.getHttpAdapter().getInstance() as Express).request, 'fresh', { get: () => false });
  const rateLimit = app.get(RateLimitMiddleware);
  answerRequestsNodeWouldRefuse(app.getHttpServer(), (address) => rateLimit.chargeConnection(address));
  app.use(
    compose(
      requestIdMiddleware,
      undecodablePathMiddleware,
      requestObserver(app.get(MetricsService), app.getHttpAdapter().getInstance(), logger),
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
  app.use(compose(spend, refuseMalformedRequests, bodyLimitMiddleware(config.bodyLimitBytes)));
  if (config.docsEnabled) setupDocs(app, buildOpenApiDocument(app), config.appEnv);
}

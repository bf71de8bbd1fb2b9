import type { NextFunction, Request, Response } from 'express';
import type { MetricsService } from './metrics.service.js';

/**
 * The route template (never the raw path, whose ids would explode the label set). Wildcard routes
 * are those of middleware (the rate limiter's `v1/*path`), not of an operation.
 */
export function routeLabel(req: Request): string {
  const route = (req as Request & { route?: { path?: string } }).route?.path;
  return route && !route.includes('*') ? `${req.baseUrl ?? ''}${route}` : 'unmatched';
}

/** Records every request's method, route, status and duration when its response is finished. */
export function requestObserver(metrics: MetricsService) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      metrics.observeRequest(req.method, routeLabel(req), res.statusCode, Number(process.hrtime.bigint() - started) / 1e9);
    });
    next();
  };
}

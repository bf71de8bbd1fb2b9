import type { Express, NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { redactKeys } from '../values/api-key-format.js';
import type { MetricsService } from './metrics.service.js';

interface RouteLayer {
  route?: { path: string };
  match(path: string): boolean;
}

const ROUTE_LABEL = Symbol('route-label');
const LABELLER = Symbol('route-labeller');
type LabelledRequest = Request & {
  [ROUTE_LABEL]?: string;
  [LABELLER]?: (req: Request) => string;
  route?: { path?: string };
};

/** The label of Swagger UI's own files (served by a static middleware under /docs, not by routes). */
export const DOCS_ASSET_ROUTE = '/docs/{asset}';

/**
 * The route template of a request (never the raw path, whose ids would explode label sets), also
 * for requests refused before routing (401, 429): those are matched against the router's routes.
 * Wildcard routes are middleware (the rate limiter's `v1/*path`), not operations. With `docs`,
 * anything else under /docs/ is one of Swagger UI's files: one label for them all, not `unmatched`
 * (which is kept for what no part of the service answers).
 */
export function routeLabeller(express: Express, docs = false): (req: Request) => string {
  let routes: RouteLayer[] | undefined;
  return (req) => {
    const r = req as LabelledRequest;
    if (r[ROUTE_LABEL]) return r[ROUTE_LABEL];
    const own = r.route?.path;
    if (own && !own.includes('*')) return (r[ROUTE_LABEL] = `${req.baseUrl ?? ''}${own}`);
    routes ??= ((express as unknown as { router?: { stack: RouteLayer[] } }).router?.stack ?? []).filter(
      (layer) => layer.route !== undefined && !layer.route.path.includes('*'),
    );
    const hit = routes.find((layer) => {
      try {
        return layer.match(req.path);
      } catch {
        // match() decodes the parameters after the pattern matched: a malformed escape (%E0%A4%A)
        // throws here, and the path is still this route's.
        return true;
      }
    });
    // The static middleware is mounted on /docs: while it answers, the path is without its mount point.
    const unmatched = docs && `${req.baseUrl ?? ''}${req.path}`.startsWith('/docs/') ? DOCS_ASSET_ROUTE : 'unmatched';
    return (r[ROUTE_LABEL] = hit?.route?.path ?? unmatched);
  };
}

/** The route label of a request that went through requestObserver (the request log uses it too). */
export const routeLabel = (req: Request): string => (req as LabelledRequest)[LABELLER]?.(req) ?? 'unmatched';

/**
 * A response's status for metrics and logs: `aborted` when the client went away before it was
 * sent (a slow request given up on must not vanish from the latency histogram, nor pass for a 200).
 */
export const statusLabel = (res: Response): string => (res.writableFinished ? String(res.statusCode) : 'aborted');

/**
 * A fault (a 500, or any answer with a cause in `err`) is an `error`. A 503 is not a fault: the
 * service refused the request for load (docs/rate-limits.md#overload), or a probe found it not ready
 * or shutting down; it is a `warn`, as a request whose client went away first is. Everything else
 * (a 429 included: the client's share or budget, not the service's fault) is `info`.
 */
function logLevelOf(status: string, statusCode: number, err: Error | undefined): 'error' | 'warn' | 'info' {
  if (status === 'aborted') return 'warn';
  if (err !== undefined) return 'error';
  if (statusCode === 503) return 'warn';
  return statusCode >= 500 ? 'error' : 'info';
}

/**
 * One JSON line per request: request id, client, tenant, route, status and duration. Headers are
 * never logged (the Authorization header carries the key), and key-shaped text in URLs is redacted.
 * The line is built only when its level is enabled: a request costs the log nothing otherwise.
 */
function logRequest(logger: Logger, req: Request, res: Response, route: string, status: string, ms: number): void {
  const { err, refusedParameters } = res as Response & { err?: Error; refusedParameters?: string[] };
  // Set by the error filter on a 400 (names only); a name is the client's text, like the URL.
  const refused = refusedParameters?.map(redactKeys);
  const level = logLevelOf(status, res.statusCode, err);
  if (!logger.isLevelEnabled(level)) return;
  logger[level](
    {
      requestId: req.requestId,
      req: { method: req.method, url: redactKeys(req.originalUrl) },
      res: { statusCode: status === 'aborted' ? null : res.statusCode },
      ...(err === undefined ? {} : { err: { type: err.name, message: redactKeys(err.message) } }),
      ...(refused === undefined ? {} : { refusedParameters: refused }),
      durationMs: Math.round(ms),
      clientId: req.caller?.clientId ?? null,
      tenantId: req.caller?.tenantId ?? null,
      route,
    },
    refused === undefined
      ? `${req.method} ${route} ${status}`
      : `${req.method} ${route} ${status} (${refused.join(', ')})`,
  );
}

const STARTED = Symbol('request-started');
const OBSERVED = Symbol('request-observed');
type ObservedResponse = Response & {
  [STARTED]?: number;
  [OBSERVED]?: (req: Request, res: Response, ms: number) => void;
};

/**
 * The one 'close' listener of every response (a shared function, not a closure and a `once` wrapper
 * per request): Node emits 'close' once per response, finished or abandoned.
 */
function onResponseClose(this: ObservedResponse): void {
  const started = this[STARTED];
  const observe = this[OBSERVED];
  if (started === undefined || observe === undefined) return;
  observe(this.req, this, performance.now() - started);
}

/**
 * Records every request's method, route, status and duration when its response is finished or
 * abandoned (metrics, and the request log when a logger is given): one listener per request.
 */
export function requestObserver(metrics: MetricsService, express: Express, logger?: Logger, docs = false) {
  const labeller = routeLabeller(express, docs);
  const observe = (req: Request, res: Response, ms: number): void => {
    const status = statusLabel(res);
    // An exception here would escape every handler and end the process: metrics and logs never may.
    let route = 'unmatched';
    try {
      route = routeLabel(req);
    } catch {
      // the route stays unmatched
    }
    metrics.observeRequest(req.method, route, status, ms / 1000);
    if (logger) logRequest(logger, req, res, route, status, ms);
  };
  return (req: Request, res: Response, next: NextFunction): void => {
    (req as LabelledRequest)[LABELLER] = labeller;
    const observed = res as ObservedResponse;
    observed[STARTED] = performance.now();
    observed[OBSERVED] = observe;
    res.on('close', onResponseClose);
    next();
  };
}

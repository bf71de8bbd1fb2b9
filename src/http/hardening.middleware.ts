import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { isPlainTarget, isV1 } from '../values/v1-target.js';
import { ApiError } from './api-error.js';

/** Whether a request is for /v1 (routes are case-sensitive). Only a target not plainly written is parsed. */
export const isV1Request = (req: Request): boolean => isV1(isPlainTarget(req.url) ? req.url : req.path);

/** Responses of /v1 hold tenant data: never cached by intermediaries, never content-sniffed. */
export function hardeningMiddleware(req: Request, res: Response, next: NextFunction): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  if (isV1Request(req)) res.setHeader('Cache-Control', 'no-store');
  next();
}

/** Requests waiting for their body in `bodyLimitMiddleware`, and how to stop waiting. */
const bodyWaits = new WeakMap<IncomingMessage, (error: ApiError | null) => void>();
/** Requests whose body will never arrive (see `abandonBody`), with the error to answer (null: none). */
const abandonedBodies = new WeakMap<IncomingMessage, ApiError | null>();

/**
 * The body of this request will never be complete (it stopped arriving within the request timeout,
 * or Node's parser refused it): a request still waiting for it is answered with `error` instead, and
 * one that reaches `bodyLimitMiddleware` later at once. With `null` (its client ended its side of the
 * connection: it has gone away) it is not answered at all and goes no further: it ends when its
 * connection is closed.
 */
export function abandonBody(req: IncomingMessage, error: ApiError | null): void {
  abandonedBodies.set(req, error);
  bodyWaits.get(req)?.(error);
}

/**
 * No route takes a body, so bodies are never parsed; but any body over the limit, whatever its content
 * type, is a 413. Declared lengths are refused before reading; chunked bodies are counted as they come.
 */
export function bodyLimitMiddleware(limitBytes: number) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const declared = req.headers['content-length'];
    if (declared !== undefined && Number(declared) > limitBytes) {
      next(ApiError.payloadTooLarge());
      return;
    }
    if (declared === undefined && req.headers['transfer-encoding'] === undefined) {
      next();
      return;
    }
    const abandoned = abandonedBodies.get(req);
    if (abandoned === null) return;
    if (abandoned !== undefined) {
      next(abandoned);
      return;
    }
    let received = 0;
    let finished = false;
    const finish = (error?: unknown): void => {
      if (finished) return;
      finished = true;
      bodyWaits.delete(req);
      req.removeListener('data', onData);
      req.removeListener('end', onEnd);
      req.removeListener('error', onError);
      if (error !== null) next(error);
    };
    const onData = (chunk: Buffer): void => {
      received += chunk.length;
      if (received > limitBytes) {
        req.pause();
        finish(ApiError.payloadTooLarge());
      }
    };
    const onEnd = (): void => finish();
    const onError = (): void => finish(ApiError.payloadTooLarge());
    bodyWaits.set(req, finish);
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  };
}

/**
 * A path segment whose percent-escapes do not decode (`%E0%A4%A`, `%zz`) would make Express's router
 * throw while matching, before authentication and before the route is known. Such a segment is
 * re-escaped to stand for its literal text, so the request takes the normal path: 401 without a
 * key, 403 without the scope, and a 400 naming the parameter (a literal `%` is never a valid id).
 */
export function escapeUndecodablePath(url: string): string {
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  if (!path.includes('%')) return url;
  const segments = path.split('/').map((segment) => {
    try {
      decodeURIComponent(segment);
      return segment;
    } catch {
      return segment.replaceAll('%', '%25');
    }
  });
  return segments.join('/') + (query === -1 ? '' : url.slice(query));
}

export function undecodablePathMiddleware(req: Request, _res: Response, next: NextFunction): void {
  // Assigned only when it changes: Express keeps its parse of the URL while req.url stays the same string.
  const url = escapeUndecodablePath(req.url);
  if (url !== req.url) req.url = url;
  next();
}

import type { NextFunction, Request, Response } from 'express';
import { ApiError } from './api-error.js';

/** Responses of /v1 hold tenant data: never cached by intermediaries, never content-sniffed. */
export function hardeningMiddleware(req: Request, res: Response, next: NextFunction): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  if (req.path === '/v1' || req.path.startsWith('/v1/')) res.setHeader('Cache-Control', 'no-store');
  next();
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
    let received = 0;
    let finished = false;
    const finish = (error?: unknown): void => {
      if (finished) return;
      finished = true;
      req.removeListener('data', onData);
      req.removeListener('end', onEnd);
      req.removeListener('error', onError);
      next(error);
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
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  };
}

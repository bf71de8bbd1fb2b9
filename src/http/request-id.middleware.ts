import { randomBytes } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { containsKeyLike } from '../auth/api-key-format.js';
import './request-context.js';

export const REQUEST_ID_HEADER = 'X-Request-Id';
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9_.:-]{1,80}$/;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `req_` and 24 random letters and digits. */
export function generateRequestId(): string {
  let id = 'req_';
  for (const byte of randomBytes(32)) {
    if (byte < 248 && id.length < 28) id += ALPHABET[byte % 62];
  }
  return id.length === 28 ? id : generateRequestId();
}

/**
 * Runs first, as plain Express middleware, so that every response (401, 404 of unknown routes, 413,
 * 500) carries the id. A caller's id is kept when it is well formed, otherwise replaced; so is one
 * shaped like an API key, which would otherwise be logged and echoed.
 */
export function requestIdMiddleware(req: Request, res: Response, next: NextFunction): void {
  const given = req.headers['x-request-id'];
  const id =
    typeof given === 'string' && REQUEST_ID_PATTERN.test(given) && !containsKeyLike(given)
      ? given
      : generateRequestId();
  req.requestId = id;
  res.setHeader(REQUEST_ID_HEADER, id);
  next();
}

import { randomBytes } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { containsKeyLike } from '../values/api-key-format.js';
import './request-context.js';

export const REQUEST_ID_HEADER = 'X-Request-Id';
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9_.:-]{1,80}$/;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * Random bytes for request ids, drawn from the system's CSPRNG a few kilobytes at a time: one call per
 * ~150 requests instead of one per request.
 */
let pool = Buffer.alloc(0);
let next = 0;

function randomByte(): number {
  if (next >= pool.length) {
    pool = randomBytes(4096);
    next = 0;
  }
  return pool[next++];
}

/** `req_` and 24 random letters and digits (bytes of 248 and more are skipped: no modulo bias). */
export function generateRequestId(): string {
  let id = 'req_';
  while (id.length < 28) {
    const byte = randomByte();
    if (byte < 248) id += ALPHABET[byte % 62];
  }
  return id;
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

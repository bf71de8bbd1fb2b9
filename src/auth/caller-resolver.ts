import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ApiKeyService } from './api-key.service.js';
import type { ApiCaller } from './api-caller.js';

/** `Bearer` in any case, exactly one space, then the key. */
const BEARER = /^bearer ([^\s]+)$/i;

/** The key an `Authorization` header presents (`Bearer` in any case), or undefined when it is not one. */
export function bearerKey(header: string | undefined): string | undefined {
  return header === undefined ? undefined : BEARER.exec(header)?.[1];
}
const RESOLVED = Symbol('caller-resolution');

type ResolvedRequest = Request & { [RESOLVED]?: Promise<ApiCaller | null> };

/**
 * Finds the caller of a request from its Authorization header, once per request: the rate limiter
 * (which must know whether a key is valid to pick the budget) and ApiKeyGuard share the answer.
 */
@Injectable()
export class CallerResolver {
  constructor(private readonly keys: ApiKeyService) {}

  resolve(req: Request): Promise<ApiCaller | null> {
    const r = req as ResolvedRequest;
    r[RESOLVED] ??= this.lookup(req.headers.authorization);
    return r[RESOLVED];
  }

  /**
   * The caller when it is known without a lookup (see ApiKeyService.authenticateCached), else
   * undefined; `resolve` then gives the same answer.
   */
  resolveNow(req: Request): ApiCaller | null | undefined {
    const r = req as ResolvedRequest;
    if (r[RESOLVED] !== undefined) return undefined;
    const header = req.headers.authorization;
    const match = typeof header === 'string' ? BEARER.exec(header) : null;
    const caller = match ? this.keys.authenticateCached(match[1]) : null;
    if (caller !== undefined) r[RESOLVED] = Promise.resolve(caller);
    return caller;
  }

  private async lookup(header: string | undefined): Promise<ApiCaller | null> {
    const match = typeof header === 'string' ? BEARER.exec(header) : null;
    return match ? this.keys.authenticate(match[1]) : null;
  }
}

import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ApiKeyService } from './api-key.service.js';
import type { ApiCaller } from './api-caller.js';
import { bearerKey } from '../values/api-key-format.js';

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
    const key = bearerKey(typeof header === 'string' ? header : undefined);
    const caller = key === undefined ? null : this.keys.authenticateCached(key);
    if (caller !== undefined) r[RESOLVED] = Promise.resolve(caller);
    return caller;
  }

  private async lookup(header: string | undefined): Promise<ApiCaller | null> {
    const key = bearerKey(typeof header === 'string' ? header : undefined);
    return key === undefined ? null : this.keys.authenticate(key);
  }
}

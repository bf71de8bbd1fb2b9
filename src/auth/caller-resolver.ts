import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ApiKeyService } from './api-key.service.js';
import type { ApiCaller } from './api-caller.js';
import { bearerKey } from '../values/api-key-format.js';

const RESOLVED = Symbol('caller-resolution');
const KNOWN = Symbol('caller-known');

type ResolvedRequest = Request & { [RESOLVED]?: Promise<ApiCaller | null>; [KNOWN]?: ApiCaller | null };

/**
 * Finds the caller of a request from its Authorization header, once per request: the request gate
 * (which names a known key's client), the rate limiter (which must know whether a key is valid to
 * pick the budget) and ApiKeyGuard share the answer.
 */
@Injectable()
export class CallerResolver {
  constructor(private readonly keys: ApiKeyService) {}

  resolve(req: Request): Promise<ApiCaller | null> {
    const r = req as ResolvedRequest;
    const known = r[KNOWN];
    if (known !== undefined) return Promise.resolve(known);
    r[RESOLVED] ??= this.lookup(req.headers.authorization);
    return r[RESOLVED];
  }

  /**
   * The caller when it is known without a lookup (see ApiKeyService.authenticateCached), else
   * undefined; `resolve` then gives the same answer. Kept on the request once known.
   */
  resolveNow(req: Request): ApiCaller | null | undefined {
    const r = req as ResolvedRequest;
    const known = r[KNOWN];
    if (known !== undefined) return known;
    if (r[RESOLVED] !== undefined) return undefined;
    const header = req.headers.authorization;
    const key = bearerKey(typeof header === 'string' ? header : undefined);
    const caller = key === undefined ? null : this.keys.authenticateCached(key);
    if (caller !== undefined) r[KNOWN] = caller;
    return caller;
  }

  /**
   * The API client the request gate counts a request for: the caller's when it is known now (kept
   * for the rate limit), else that of a key looked up valid before (its cache entry older than
   * AUTH_CACHE_TTL_MS), else undefined (no key, or one never found valid: counted by its address).
   */
  gateClient(req: Request): string | undefined {
    const now = this.resolveNow(req);
    if (now !== undefined) return now?.clientId;
    const key = bearerKey(typeof req.headers.authorization === 'string' ? req.headers.authorization : undefined);
    return key === undefined ? undefined : this.keys.knownClient(key);
  }

  /**
   * The caller of a key this process has found before, however long ago (its entry kept), when the
   * request's key could not be checked now: whose budget its answer's RateLimit headers speak of.
   */
  knownCaller(req: Request): Omit<ApiCaller, 'deadlineMs'> | undefined {
    const header = req.headers.authorization;
    const key = bearerKey(typeof header === 'string' ? header : undefined);
    return key === undefined ? undefined : this.keys.knownCaller(key);
  }

  private async lookup(header: string | undefined): Promise<ApiCaller | null> {
    const key = bearerKey(typeof header === 'string' ? header : undefined);
    return key === undefined ? null : this.keys.authenticate(key);
  }
}

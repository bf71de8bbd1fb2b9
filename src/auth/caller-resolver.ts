import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ApiKeyService } from './api-key.service.js';
import type { CallerScope } from './caller-scope.js';

/** `Bearer` in any case, exactly one space, then the key. */
const BEARER = /^bearer ([^\s]+)$/i;
const RESOLVED = Symbol('caller-resolution');

type ResolvedRequest = Request & { [RESOLVED]?: Promise<CallerScope | null> };

/**
 * Finds the caller of a request from its Authorization header, once per request: the rate limiter
 * (which must know whether a key is valid to pick the budget) and ApiKeyGuard share the answer.
 */
@Injectable()
export class CallerResolver {
  constructor(private readonly keys: ApiKeyService) {}

  resolve(req: Request): Promise<CallerScope | null> {
    const r = req as ResolvedRequest;
    r[RESOLVED] ??= this.lookup(req.headers.authorization);
    return r[RESOLVED];
  }

  private async lookup(header: string | undefined): Promise<CallerScope | null> {
    const match = typeof header === 'string' ? BEARER.exec(header) : null;
    return match ? this.keys.authenticate(match[1]) : null;
  }
}

import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { Scope } from './scopes.js';

/**
 * Who is calling this request, as established from the key alone: the tenant never comes from the
 * request. Services hand it to DataScopeService, which turns it into the rows the request may see.
 */
export interface ApiCaller {
  readonly clientId: string;
  readonly keyId: string;
  readonly tenantId: string;
  readonly scopes: ReadonlySet<Scope>;
  /** null: every store of the tenant, present and future. */
  readonly allowedStoreIds: readonly string[] | null;
  readonly rateLimitPerMinute: number | null;
  /**
   * Epoch milliseconds until which this request may wait for the database (its start plus
   * DB_STATEMENT_TIMEOUT_MS): one budget for all of its statements.
   */
  readonly deadlineMs: number;
}

declare module 'express-serve-static-core' {
  interface Request {
    /** Set by ApiKeyGuard once the key is verified. */
    caller?: ApiCaller;
  }
}

/** The verified caller of the current request. */
export const Caller = createParamDecorator((_data: unknown, ctx: ExecutionContext): ApiCaller => {
  const caller = ctx.switchToHttp().getRequest<Request>().caller;
  if (!caller) throw new Error('Caller used on a route that ApiKeyGuard did not authenticate');
  return caller;
});

import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { Scope } from './scopes.js';

/**
 * Who is calling, as established by ApiKeyGuard from the key alone: the tenant never comes from the
 * request. Every service method takes it first and hands it to the tenancy scope helper.
 */
export interface ApiCaller {
  readonly clientId: string;
  readonly keyId: string;
  readonly tenantId: string;
  readonly scopes: ReadonlySet<Scope>;
  /** null: every store of the tenant, present and future. */
  readonly allowedStoreIds: readonly string[] | null;
  readonly rateLimitPerMinute: number | null;
}

/** The verified caller of the current request. */
export const Caller = createParamDecorator((_data: unknown, ctx: ExecutionContext): ApiCaller => {
  const caller = ctx.switchToHttp().getRequest<Request>().caller;
  if (!caller) throw new Error('Caller used on a route that ApiKeyGuard did not authenticate');
  return caller;
});

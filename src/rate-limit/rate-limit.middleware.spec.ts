import type { Request, Response } from 'express';
import type { DataSource } from 'typeorm';
import type { ApiCaller } from '../auth/api-caller.js';
import type { CallerResolver } from '../auth/caller-resolver.js';
import { loadConfig } from '../config/app-config.js';
import { DatabaseBusyError } from '../database/deadline.js';
import { MetricsService } from '../observability/metrics.service.js';
import { RateLimitMiddleware } from './rate-limit.middleware.js';
import { RateLimitStore } from './rate-limit.store.js';

/**
 * A request whose key could not be looked up (refused admission for load, or the database away)
 * spends nothing, and its RateLimit headers speak of the budget it would have spent from: its key's
 * client's when this process found the key valid before (a stranger's lookup flood had valid keys
 * told `"per-ip";r=0` with their own budget full), else its address's.
 */
describe('RateLimitMiddleware when the key lookup fails', () => {
  const config = loadConfig({ RATE_LIMIT_PER_MINUTE: '600', RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: '60' });
  let store: RateLimitStore;
  beforeEach(() => {
    store = new RateLimitStore(config, new MetricsService({ driver: {} } as unknown as DataSource));
  });
  afterEach(() => store.onModuleDestroy());

  const answer = async (known: Partial<ApiCaller> | undefined) => {
    const callers = {
      resolveNow: () => undefined,
      resolve: () => Promise.reject(new DatabaseBusyError(1)),
      knownCaller: () => known,
    } as unknown as CallerResolver;
    const metrics = new MetricsService({ driver: {} } as unknown as DataSource);
    const middleware = new RateLimitMiddleware(callers, store, config, metrics);
    const headers: Record<string, string> = {};
    const req = {
      headers: { authorization: 'Bearer ck_test_AKeyWhoseLookupIsRefused000000000001' },
      ip: '198.51.100.7',
      socket: { remoteAddress: '198.51.100.7' },
    } as unknown as Request;
    const res = { setHeader: (name: string, value: string) => (headers[name] = value) } as unknown as Response;
    const error = await new Promise<unknown>((resolve) => void middleware.use(req, res, resolve));
    return { error: (error as Error)?.name, headers };
  };

  it("a key found valid before: its client's budget, nothing spent", async () => {
    expect(await answer({ clientId: 'cli_polite', rateLimitPerMinute: 1000 })).toEqual({
      error: 'DatabaseBusyError',
      headers: { 'RateLimit-Policy': '"per-client";q=1000;w=60', RateLimit: '"per-client";r=1000;t=0' },
    });
  });

  it("a key never found: its address's budget, nothing spent", async () => {
    expect(await answer(undefined)).toEqual({
      error: 'DatabaseBusyError',
      headers: { 'RateLimit-Policy': '"per-ip";q=60;w=60', RateLimit: '"per-ip";r=60;t=0' },
    });
  });
});

import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { CallerResolver } from '../auth/caller-resolver.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { ApiError } from '../shared/http/api-error.js';
import { MetricsService } from '../observability/metrics.service.js';
import { clientAddressKey } from './client-address.js';
import { RateLimitStore, WINDOW_SECONDS } from './rate-limit.store.js';

/**
 * Every /v1 request spends from one budget: its API client's (all keys of a client share it) when
 * the key is valid, else its address's, so that key guessing is throttled too. Every /v1 response
 * carries the RateLimit-Policy and RateLimit headers of draft-ietf-httpapi-ratelimit-headers-11.
 */
@Injectable()
export class RateLimitMiddleware implements NestMiddleware {
  constructor(
    private readonly callers: CallerResolver,
    private readonly store: RateLimitStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: MetricsService,
  ) {}

  async use(req: Request, res: Response, next: NextFunction): Promise<void> {
    try {
      const caller = await this.callers.resolve(req);
      const [policy, key, limit] = caller
        ? ['per-client', `client:${caller.clientId}`, caller.rateLimitPerMinute ?? this.config.rateLimitPerMinute]
        : ['per-ip', `ip:${clientAddressKey(req.ip)}`, this.config.rateLimitUnauthenticatedPerMinute];
      const decision = await this.store.hit(key, limit);
      res.setHeader('RateLimit-Policy', `"${policy}";q=${limit};w=${WINDOW_SECONDS}`);
      res.setHeader('RateLimit', `"${policy}";r=${decision.remaining};t=${decision.resetSeconds}`);
      if (decision.exceeded) {
        this.metrics.countRateLimited(policy);
        next(ApiError.rateLimited(decision.resetSeconds));
        return;
      }
      next();
    } catch (error) {
      next(error);
    }
  }
}

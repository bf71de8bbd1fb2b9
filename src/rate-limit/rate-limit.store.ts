import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { ThrottlerStorageService, type ThrottlerStorage } from '@nestjs/throttler';
import { Redis } from 'ioredis';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { MetricsService } from '../observability/metrics.service.js';
import { RedisThrottlerStorage } from './redis-throttler.storage.js';

export const WINDOW_SECONDS = 60;
const WINDOW_MS = WINDOW_SECONDS * 1000;
const THROTTLER_NAME = 'v1';
const LOG_INTERVAL_MS = 60_000;

export interface RateLimitDecision {
  limit: number;
  remaining: number;
  /** Seconds until the budget is whole again (the window resets, or a block ends). */
  resetSeconds: number;
  exceeded: boolean;
}

/**
 * Counts requests per budget key in @nestjs/throttler storage: in process by default, in Redis (shared
 * by every replica) with REDIS_URL. When Redis cannot answer, the service keeps serving on in-process
 * counters (fails open), logs that once a minute and counts it; ioredis reconnects by itself.
 */
@Injectable()
export class RateLimitStore implements OnModuleDestroy {
  private readonly logger = new Logger('RateLimit');
  private readonly local = new ThrottlerStorageService();
  private readonly redis: Redis | null;
  private readonly shared: ThrottlerStorage | null;
  private lastFailureLog = 0;
  /** Requests counted in process because Redis did not answer (exported as a metric). */
  failOpenEvents = 0;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly metrics: MetricsService,
  ) {
    if (config.redisUrl === null) {
      this.redis = null;
      this.shared = null;
      return;
    }
    this.redis = new Redis(config.redisUrl, {
      // Fail fast instead of queueing while Redis is away; a request never waits for Redis.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 2000,
      commandTimeout: 500,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
      keyPrefix: config.redisKeyPrefix,
    });
    this.redis.on('error', (error: Error) => this.noteFailure(error));
    this.shared = new RedisThrottlerStorage(this.redis);
  }

  get backend(): 'redis' | 'memory' {
    return this.shared ? 'redis' : 'memory';
  }

  async hit(key: string, limit: number): Promise<RateLimitDecision> {
    let record;
    if (this.shared) {
      try {
        record = await this.shared.increment(key, WINDOW_MS, limit, WINDOW_MS, THROTTLER_NAME);
      } catch (error) {
        this.failOpenEvents++;
        this.metrics.countRedisFailOpen();
        this.noteFailure(error as Error);
      }
    }
    record ??= await this.local.increment(key, WINDOW_MS, limit, WINDOW_MS, THROTTLER_NAME);
    if (record.isBlocked) {
      return { limit, remaining: 0, resetSeconds: Math.max(1, record.timeToBlockExpire), exceeded: true };
    }
    return {
      limit,
      remaining: Math.max(0, limit - record.totalHits),
      resetSeconds: Math.max(0, Math.min(WINDOW_SECONDS, record.timeToExpire)),
      exceeded: false,
    };
  }

  private noteFailure(error: Error): void {
    const now = Date.now();
    if (now - this.lastFailureLog < LOG_INTERVAL_MS) return;
    this.lastFailureLog = now;
    this.logger.warn(`Redis is unreachable (${error.message}); counting rate limits in this process until it is back`);
  }

  onModuleDestroy(): void {
    this.local.onApplicationShutdown();
    this.redis?.disconnect(false);
  }
}

import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import { Redis } from 'ioredis';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { MetricsService } from '../observability/metrics.service.js';
import { FixedWindowThrottlerStorage } from './memory-throttler.storage.js';
import { blockKeyOf, RedisThrottlerStorage } from './redis-throttler.storage.js';

export const WINDOW_SECONDS = 60;
const WINDOW_MS = WINDOW_SECONDS * 1000;
const THROTTLER_NAME = 'v1';
const LOG_INTERVAL_MS = 60_000;
const CONNECT_TIMEOUT_MS = 2000;
const blockKey = (key: string): string => blockKeyOf(THROTTLER_NAME, key);

export interface RateLimitDecision {
  limit: number;
  remaining: number;
  /** Seconds until the budget is whole again (the window resets, or a block ends). */
  resetSeconds: number;
  exceeded: boolean;
}

/**
 * Counts requests per budget key in @nestjs/throttler storage, in fixed windows of 60 s: in process by
 * default, in Redis (shared by every replica) with REDIS_URL. When Redis cannot answer, the service keeps serving on in-process
 * counters (fails open), logs that once a minute and counts it; ioredis reconnects by itself.
 */
@Injectable()
export class RateLimitStore implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('RateLimit');
  private readonly local = new FixedWindowThrottlerStorage(WINDOW_MS);
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
      connectTimeout: CONNECT_TIMEOUT_MS,
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

  /**
   * Seconds left of a block on this budget key (0 when it is not blocked), without spending from it.
   * In Redis this reads the block key that RedisThrottlerStorage sets; on failure, the local counters.
   */
  async blockedSeconds(key: string): Promise<number> {
    if (this.redis) {
      try {
        const ms = await this.redis.pttl(blockKey(key));
        return ms > 0 ? Math.ceil(ms / 1000) : 0;
      } catch (error) {
        this.failOpenEvents++;
        this.metrics.countRedisFailOpen();
        this.noteFailure(error as Error);
      }
    }
    return Math.ceil(this.local.blockedMs(key, THROTTLER_NAME) / 1000);
  }

  /** Budget keys counted in this process (each holds one fixed-size record until the sweep drops it). */
  inProcessKeys(): number {
    return this.local.size;
  }

  private noteFailure(error: Error): void {
    const now = Date.now();
    if (now - this.lastFailureLog < LOG_INTERVAL_MS) return;
    this.lastFailureLog = now;
    this.logger.warn(`Redis is unreachable (${error.message}); counting rate limits in this process until it is back`);
  }

  /**
   * Starts serving once Redis has answered or refused (or after its connect timeout), so that the
   * first requests count in Redis when it is there; a Redis that is down does not hold up the start.
   */
  async onModuleInit(): Promise<void> {
    const redis = this.redis;
    if (redis === null || redis.status === 'ready') return;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        redis.off('ready', done).off('error', done);
        resolve();
      };
      const timer = setTimeout(done, CONNECT_TIMEOUT_MS);
      redis.once('ready', done).once('error', done);
    });
  }

  onModuleDestroy(): void {
    this.local.close();
    this.redis?.disconnect(false);
  }
}

import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
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
const COMMAND_TIMEOUT_MS = 500;
/** While Redis is not answering, how often a PING checks whether it is back. */
const PROBE_INTERVAL_MS = 1000;
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
 * default, in Redis (shared by every replica) with REDIS_URL.
 *
 * Redis sits behind a circuit breaker, so that a Redis that is down or frozen costs requests nothing:
 * the first command that fails or times out (500 ms) opens it, and from then on every request counts
 * in process (fails open, logged once a minute, counted in a metric) without sending anything to
 * Redis, while a PING once a second probes it; the first PING answered closes the breaker and the
 * counts go back to Redis. ioredis reconnects by itself meanwhile.
 */
@Injectable()
export class RateLimitStore implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('RateLimit');
  private readonly local = new FixedWindowThrottlerStorage(WINDOW_MS);
  private readonly redis: Redis | null;
  private readonly shared: RedisThrottlerStorage | null;
  /** The breaker: closed (commands go to Redis) while true. */
  private redisAnswering = true;
  private probe: NodeJS.Timeout | null = null;
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
      commandTimeout: COMMAND_TIMEOUT_MS,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
      keyPrefix: config.redisKeyPrefix,
    });
    this.redis.on('error', (error: Error) => this.openBreaker(error));
    this.shared = new RedisThrottlerStorage(this.redis);
  }

  get backend(): 'redis' | 'memory' {
    return this.shared ? 'redis' : 'memory';
  }

  async hit(key: string, limit: number): Promise<RateLimitDecision> {
    const shared = this.shared;
    let record = shared
      ? await this.viaRedis(() => shared.increment(key, WINDOW_MS, limit, WINDOW_MS, THROTTLER_NAME))
      : undefined;
    if (record === undefined && shared) {
      this.failOpenEvents++;
      this.metrics.countRedisFailOpen();
    }
    record ??= this.local.count(key, WINDOW_MS, limit, WINDOW_MS, THROTTLER_NAME);
    return decisionOf(record, limit);
  }

  /** Without Redis, nothing waits: `hit` and `blockedSeconds` answered at once (null with Redis). */
  get inProcess(): { hit(key: string, limit: number): RateLimitDecision; blockedSeconds(key: string): number } | null {
    return this.shared === null ? this.inProcessCounts : null;
  }

  private readonly inProcessCounts = {
    hit: (key: string, limit: number): RateLimitDecision =>
      decisionOf(this.local.count(key, WINDOW_MS, limit, WINDOW_MS, THROTTLER_NAME), limit),
    blockedSeconds: (key: string): number => Math.ceil(this.local.blockedMs(key, THROTTLER_NAME) / 1000),
  };

  /** Where a budget key stands, without spending from it. */
  async peek(key: string, limit: number): Promise<RateLimitDecision> {
    const shared = this.shared;
    let window = shared ? await this.viaRedis(() => shared.peek(key, THROTTLER_NAME)) : undefined;
    if (window === undefined) window = this.local.peek(key, THROTTLER_NAME);
    return {
      limit,
      remaining: Math.max(0, limit - (window?.totalHits ?? 0)),
      resetSeconds: window === null ? 0 : Math.min(WINDOW_SECONDS, window.timeToExpire),
      exceeded: false,
    };
  }

  /**
   * Seconds left of a block on this budget key (0 when it is not blocked), without spending from it.
   * In Redis this reads the block key that RedisThrottlerStorage sets; without Redis, the local counters.
   */
  async blockedSeconds(key: string): Promise<number> {
    const redis = this.redis;
    const ms = redis ? await this.viaRedis(() => redis.pttl(blockKey(key))) : undefined;
    // PTTL is -2 without a block key.
    return Math.max(0, Math.ceil((ms ?? this.local.blockedMs(key, THROTTLER_NAME)) / 1000));
  }

  /** Budget keys counted in this process (each holds one fixed-size record until the sweep drops it). */
  inProcessKeys(): number {
    return this.local.size;
  }

  /** A command's answer, or undefined when the breaker is open or the command failed (which opens it). */
  private async viaRedis<T>(command: () => Promise<T>): Promise<T | undefined> {
    if (!this.redisAnswering) return undefined;
    try {
      return await command();
    } catch (error) {
      this.openBreaker(error as Error);
      return undefined;
    }
  }

  private openBreaker(error: Error): void {
    this.noteFailure(error);
    if (!this.redisAnswering || this.redis === null) return;
    this.redisAnswering = false;
    const redis = this.redis;
    let probing = false;
    this.probe = setInterval(() => {
      if (probing) return;
      probing = true;
      redis.ping().then(
        () => this.closeBreaker(),
        () => (probing = false),
      );
    }, PROBE_INTERVAL_MS);
    this.probe.unref();
  }

  private closeBreaker(): void {
    if (this.probe !== null) clearInterval(this.probe);
    this.probe = null;
    this.redisAnswering = true;
    this.logger.log('Redis answers again; rate limits are counted in Redis');
  }

  private noteFailure(error: Error): void {
    const now = Date.now();
    if (now - this.lastFailureLog < LOG_INTERVAL_MS) return;
    this.lastFailureLog = now;
    // The error's code or a generic message: ioredis's messages may carry the server's address.
    const reason =
      (error as NodeJS.ErrnoException).code ?? (error.message === 'Command timed out' ? 'timed out' : error.name);
    this.logger.warn(`Redis is not answering (${reason}); counting rate limits in this process until it is back`);
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
    if (this.probe !== null) clearInterval(this.probe);
    this.local.close();
    this.redis?.disconnect(false);
  }
}

function decisionOf(
  record: { totalHits: number; timeToExpire: number; isBlocked: boolean; timeToBlockExpire: number },
  limit: number,
): RateLimitDecision {
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

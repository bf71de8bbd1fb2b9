import type { ThrottlerStorage } from '@nestjs/throttler';

/** The package's record type, which its index does not export. */
type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

interface FixedWindow {
  hits: number;
  /** When the window's count starts again from zero (epoch ms). */
  endsAt: number;
  /** When a block ends (epoch ms); 0 when the key was never blocked. */
  blockedUntil: number;
}

/**
 * @nestjs/throttler storage in this process, with the algorithm of the Redis script
 * (RedisThrottlerStorage): per key, a counter of the current fixed window and the end of a block once
 * the count went over the limit. A hit is one map lookup and a few comparisons whatever the traffic;
 * a sweep once a window drops the keys whose window and block are over.
 *
 * Why not the package's ThrottlerStorageService: it keeps the time of every hit of the window and
 * filters that list on every request, so its cost per request grows with the traffic (by-id
 * throughput fell to a third within a minute of steady load).
 */
export class FixedWindowThrottlerStorage implements ThrottlerStorage {
  private readonly windows = new Map<string, FixedWindow>();
  private readonly sweep: NodeJS.Timeout;

  constructor(sweepIntervalMs: number) {
    this.sweep = setInterval(() => this.dropExpired(Date.now()), sweepIntervalMs);
    this.sweep.unref();
  }

  increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    return Promise.resolve(this.count(key, ttl, limit, blockDuration, throttlerName));
  }

  /** `increment`, answered at once (nothing here waits). */
  count(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string): ThrottlerStorageRecord {
    const now = Date.now();
    const id = `${throttlerName}:${key}`;
    let window = this.windows.get(id);
    if (window === undefined) {
      window = { hits: 0, endsAt: now + ttl, blockedUntil: 0 };
      this.windows.set(id, window);
    } else if (window.endsAt <= now) {
      window.hits = 0;
      window.endsAt = now + ttl;
    }
    window.hits++;
    if (window.blockedUntil <= now && window.hits > limit) window.blockedUntil = now + Math.max(1, blockDuration);
    const blocked = window.blockedUntil > now;
    return {
      totalHits: window.hits,
      timeToExpire: Math.ceil((window.endsAt - now) / 1000),
      isBlocked: blocked,
      timeToBlockExpire: blocked ? Math.ceil((window.blockedUntil - now) / 1000) : 0,
    };
  }

  /** Milliseconds left of the key's block (0 when it is not blocked). */
  blockedMs(key: string, throttlerName: string): number {
    const window = this.windows.get(`${throttlerName}:${key}`);
    return window === undefined ? 0 : Math.max(0, window.blockedUntil - Date.now());
  }

  /** The key's count in its current window and the seconds left of it (null: no window), without counting. */
  peek(key: string, throttlerName: string): { totalHits: number; timeToExpire: number } | null {
    const window = this.windows.get(`${throttlerName}:${key}`);
    const now = Date.now();
    if (window === undefined || window.endsAt <= now) return null;
    return { totalHits: window.hits, timeToExpire: Math.ceil((window.endsAt - now) / 1000) };
  }

  get size(): number {
    return this.windows.size;
  }

  close(): void {
    clearInterval(this.sweep);
    this.windows.clear();
  }

  private dropExpired(now: number): void {
    for (const [id, window] of this.windows) {
      if (window.endsAt <= now && window.blockedUntil <= now) this.windows.delete(id);
    }
  }
}

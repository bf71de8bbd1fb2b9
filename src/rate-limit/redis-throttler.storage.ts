import type { ThrottlerStorage } from '@nestjs/throttler';
import type { Redis } from 'ioredis';

/**
 * @nestjs/throttler storage in Redis, so that every replica spends from the same budget.
 *
 * Why not @nest-lab/throttler-storage-redis: its peer range stops at NestJS 11, and as a CommonJS
 * package that requires the ESM-only @nestjs/common 12 it cannot be loaded by jest on Node 20. This
 * is the same algorithm (INCR with PEXPIRE, then a block key once over the limit) in one Lua script,
 * so a hit is one atomic round trip.
 */
const SCRIPT = `
local hits = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl <= 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
local blockTtl = redis.call('PTTL', KEYS[2])
if blockTtl > 0 then
  return { hits, ttl, 1, blockTtl }
end
if hits > tonumber(ARGV[2]) then
  redis.call('SET', KEYS[2], '1', 'PX', ARGV[3])
  return { hits, ttl, 1, tonumber(ARGV[3]) }
end
return { hits, ttl, 0, 0 }
`;

const baseKey = (throttlerName: string, key: string): string => `{${throttlerName}:${key}}`;
/** The Redis key that exists (with a TTL) while a budget key is blocked. */
export const blockKeyOf = (throttlerName: string, key: string): string => `${baseKey(throttlerName, key)}:blocked`;

export class RedisThrottlerStorage implements ThrottlerStorage {
  constructor(private readonly redis: Redis) {
    redis.defineCommand('throttlerHit', { numberOfKeys: 2, lua: SCRIPT });
  }

  /** The key's count in its current window and the seconds left of it (null: no window), without counting. */
  async peek(key: string, throttlerName: string): Promise<{ totalHits: number; timeToExpire: number } | null> {
    const hits = `${baseKey(throttlerName, key)}:hits`;
    const [count, ttlMs] = await Promise.all([this.redis.get(hits), this.redis.pttl(hits)]);
    if (count === null || ttlMs <= 0) return null;
    return { totalHits: Number(count), timeToExpire: Math.ceil(ttlMs / 1000) };
  }

  async increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string) {
    const base = baseKey(throttlerName, key);
    const hit = (this.redis as unknown as Record<string, (...args: unknown[]) => Promise<number[]>>).throttlerHit;
    const [totalHits, timeToExpireMs, blocked, timeToBlockExpireMs] = await hit.call(
      this.redis,
      `${base}:hits`,
      blockKeyOf(throttlerName, key),
      ttl,
      limit,
      Math.max(1, blockDuration),
    );
    return {
      totalHits,
      timeToExpire: Math.ceil(timeToExpireMs / 1000),
      isBlocked: blocked === 1,
      timeToBlockExpire: Math.ceil(timeToBlockExpireMs / 1000),
    };
  }
}

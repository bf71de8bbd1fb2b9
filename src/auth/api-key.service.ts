import { Inject, Injectable } from '@nestjs/common';
import { SingleFlight } from '../admission/single-flight.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { digestKey, isKeyForEnvironment } from '../values/api-key-format.js';
import type { ApiCaller } from './api-caller.js';
import { ApiKeysRepository, type KeyRow } from './api-keys.repository.js';
import { isScope } from './scopes.js';

/** A looked-up key with what every request of it shares (built once per lookup, not per request). */
interface KeyEntry {
  row: KeyRow;
  caller: Omit<ApiCaller, 'deadlineMs'>;
}

interface CacheEntry {
  entry: KeyEntry | null;
  loadedAt: number;
}

const MAX_CACHE_ENTRIES = 10_000;

/**
 * Looks keys up by SHA-256 digest. Lookups may be served from memory for AUTH_CACHE_TTL_MS (at most
 * 5 s), so that revocation, expiry and client status changes reach every replica within 5 seconds.
 * Expiry is checked against the clock on every request, cached or not.
 */
@Injectable()
export class ApiKeyService {
  private readonly cache = new Map<string, CacheEntry>();
  /** Concurrent misses of one key share one lookup (a burst on a fresh process is one read, not 5,000). */
  private readonly lookups = new SingleFlight<string, KeyEntry | null>();

  constructor(
    private readonly keys: ApiKeysRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The caller for a presented key, or null when the key is not valid for any reason. */
  async authenticate(presentedKey: string, now = new Date()): Promise<ApiCaller | null> {
    if (!isKeyForEnvironment(presentedKey, this.config.appEnv)) return null;
    const digest = digestKey(presentedKey);
    const known = this.fromCache(digest, now.getTime());
    if (known !== undefined) return known;
    // The request's one budget for the database starts here, at its first statement.
    const deadlineMs = now.getTime() + this.config.dbStatementTimeoutMs;
    return this.callerFor(await this.lookup(digest, now.getTime(), deadlineMs), now.getTime(), deadlineMs);
  }

  /**
   * The same answer as `authenticate` when it needs no lookup (a key of the wrong shape, or one
   * looked up less than AUTH_CACHE_TTL_MS ago), without a promise; undefined when the key must be
   * looked up. Most requests of a busy client are answered here.
   */
  authenticateCached(presentedKey: string, nowMs = Date.now()): ApiCaller | null | undefined {
    if (!isKeyForEnvironment(presentedKey, this.config.appEnv)) return null;
    return this.fromCache(digestKey(presentedKey), nowMs);
  }

  /**
   * The API client of a key this process has looked up and found valid, however long ago (while its
   * entry is kept): what the request gate names a request's client by, before anything is spent on
   * it. Not an authentication (the key may have been revoked since): only whose share it counts in.
   */
  knownClient(presentedKey: string): string | undefined {
    if (!isKeyForEnvironment(presentedKey, this.config.appEnv)) return undefined;
    return this.cache.get(digestKey(presentedKey))?.entry?.caller.clientId;
  }

  private fromCache(digest: string, nowMs: number): ApiCaller | null | undefined {
    const cached = this.cache.get(digest);
    if (cached === undefined || nowMs - cached.loadedAt >= this.config.authCacheTtlMs) return undefined;
    return this.callerFor(cached.entry, nowMs, nowMs + this.config.dbStatementTimeoutMs);
  }

  /** Expiry, revocation and the client's status, checked against the clock on every request. */
  private callerFor(found: KeyEntry | null, nowMs: number, deadlineMs: number): ApiCaller | null {
    if (!found) return null;
    const { row } = found;
    if (row.revoked_at !== null) return null;
    if (row.expires_at !== null && row.expires_at.getTime() <= nowMs) return null;
    if (row.status !== 'ACTIVE') return null;
    return { ...found.caller, deadlineMs };
  }

  private async lookup(digest: string, nowMs: number, deadlineMs: number): Promise<KeyEntry | null> {
    const ttl = this.config.authCacheTtlMs;
    return this.lookups.run(digest, async () => {
      const row = await this.keys.findByDigest(digest, deadlineMs);
      const entry = row === null ? null : { row, caller: callerOf(row) };
      if (ttl > 0) {
        if (this.cache.size >= MAX_CACHE_ENTRIES) this.cache.clear();
        this.cache.set(digest, { entry, loadedAt: nowMs });
      }
      return entry;
    });
  }
}

function callerOf(row: KeyRow): Omit<ApiCaller, 'deadlineMs'> {
  return {
    clientId: row.client_id,
    keyId: row.key_id,
    tenantId: row.tenant_id,
    scopes: new Set(row.scopes.filter(isScope)),
    allowedStoreIds: row.allowed_store_ids,
    rateLimitPerMinute: row.rate_limit_per_minute,
  };
}

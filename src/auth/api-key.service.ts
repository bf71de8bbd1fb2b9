import { Inject, Injectable } from '@nestjs/common';
import { SingleFlight } from '../admission/single-flight.js';
import { DatabaseBusyError, DatabaseOverloadedError } from '../database/deadline.js';
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

/**
 * Entries kept of keys found in the database (valid or not), and, apart, of digests found in none:
 * the oldest loaded goes first. Kept apart so that invented keys, which cost nothing to make, can only
 * evict each other: before, 10,000 of them cleared the whole cache, valid keys too.
 */
const MAX_FOUND_ENTRIES = 10_000;
const MAX_MISSING_ENTRIES = 10_000;

/**
 * The fair scheduler's client (docs/rate-limits.md#overload) of every lookup of a key this process has
 * not found before: one, whatever key or address. A key costs nothing to invent, nor (to a botnet) an
 * address: named by its digest or its address, a flood of invented keys would get one share of the
 * lane for each, and every API client's share would shrink to nothing. (Tried with the addresses: 250
 * of them flooding lookups left six valid-key clients refused 429 and 503 for most of their reads, the
 * lane's queue full of one lookup per address, which no one could displace.) The class is not an API
 * client's name: those start with `cli_`.
 */
export const UNKNOWN_KEYS = 'unknown keys';

/**
 * Looks keys up by SHA-256 digest. Lookups may be served from memory for AUTH_CACHE_TTL_MS (at most
 * 5 s), so that revocation, expiry and client status changes reach every replica within 5 seconds.
 * Expiry is checked against the clock on every request, cached or not.
 *
 * A lookup is a read like any other at the fair scheduler, counted for whom it is made: a key this
 * process has found before (however long ago, while its entry is kept) for its API client, in the
 * same share as the client's other reads; any other key for UNKNOWN_KEYS. So a client whose cached
 * key expired has its lookup wait only behind its fair share of the lane (before, every lookup was one
 * client, '', and a flood of unknown keys had valid keys refused 429 whenever their entry expired).
 */
@Injectable()
export class ApiKeyService {
  /** Keys found in the database, by digest: what `knownClient` names a request's client by. */
  private readonly found = new Map<string, CacheEntry>();
  /** Digests of no key, with when that was seen. */
  private readonly missing = new Map<string, number>();
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
    return this.knownCaller(presentedKey)?.clientId;
  }

  /** The caller of a key found before, however long ago (see `knownClient`): not an authentication. */
  knownCaller(presentedKey: string): Omit<ApiCaller, 'deadlineMs'> | undefined {
    if (!isKeyForEnvironment(presentedKey, this.config.appEnv)) return undefined;
    return this.found.get(digestKey(presentedKey))?.entry?.caller;
  }

  private fromCache(digest: string, nowMs: number): ApiCaller | null | undefined {
    const ttl = this.config.authCacheTtlMs;
    const cached = this.found.get(digest);
    if (cached !== undefined && nowMs - cached.loadedAt < ttl)
      return this.callerFor(cached.entry, nowMs, nowMs + this.config.dbStatementTimeoutMs);
    const missingSince = this.missing.get(digest);
    if (missingSince !== undefined && nowMs - missingSince < ttl) return null;
    return undefined;
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

  /**
   * One lookup per key at a time (single flight), shared by the requests that miss the cache
   * meanwhile. Refused admission, it is refused to the request that made it only: the others had their
   * own wait to come and did not get it, so each of them tries again (one leads the next lookup, the
   * rest share it), until one is answered or refused itself, or its deadline has passed.
   */
  private async lookup(digest: string, nowMs: number, deadlineMs: number): Promise<KeyEntry | null> {
    for (;;) {
      let led = false;
      try {
        return await this.lookups.run(digest, () => {
          led = true;
          return this.load(digest, nowMs, deadlineMs);
        });
      } catch (error) {
        const refused = error instanceof DatabaseBusyError || error instanceof DatabaseOverloadedError;
        if (led || !refused || Date.now() >= deadlineMs) throw error;
      }
    }
  }

  private async load(digest: string, nowMs: number, deadlineMs: number): Promise<KeyEntry | null> {
    // A key found before counts for its API client (even when it is no longer valid: only that client's
    // share is at stake); any other for the class of unknown keys.
    const client = this.found.get(digest)?.entry?.caller.clientId ?? UNKNOWN_KEYS;
    const row = await this.keys.findByDigest(digest, deadlineMs, client);
    const entry = row === null ? null : { row, caller: callerOf(row) };
    if (this.config.authCacheTtlMs > 0) {
      if (entry === null) {
        this.found.delete(digest);
        remember(this.missing, digest, nowMs, MAX_MISSING_ENTRIES);
      } else {
        this.missing.delete(digest);
        remember(this.found, digest, { entry, loadedAt: nowMs }, MAX_FOUND_ENTRIES);
      }
    }
    return entry;
  }
}

/** Sets `key` as the newest entry of `map`, first evicting the oldest one when the map is full. */
function remember<V>(map: Map<string, V>, key: string, value: V, max: number): void {
  map.delete(key);
  if (map.size >= max) map.delete(map.keys().next().value!);
  map.set(key, value);
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

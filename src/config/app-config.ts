import proxyAddr from 'proxy-addr';

/**
 * The one place that reads the environment. Every variable of the contract's configuration table is
 * parsed and validated here; anything else receives a typed, frozen AppConfig.
 */
export type AppEnv = 'development' | 'production';
export type DbPooler = 'none' | 'transaction';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface AppConfig {
  readonly port: number;
  readonly appEnv: AppEnv;
  /** null: the embedded PostgreSQL under `dataDir` is used. */
  readonly databaseUrl: string | null;
  readonly databaseReplicaUrls: readonly string[];
  readonly redisUrl: string | null;
  readonly rateLimitPerMinute: number;
  readonly rateLimitUnauthenticatedPerMinute: number;
  readonly bodyLimitBytes: number;
  /** Express `trust proxy` value: false, a hop count, or a list of addresses/subnets. */
  readonly trustProxy: boolean | number | string;
  readonly docsEnabled: boolean;
  /** Whether JSON answers are compressed when the client accepts it (off where the ingress compresses). */
  readonly compressionEnabled: boolean;
  /** Bodies smaller than this are sent as they are. */
  readonly compressionMinBytes: number;
  readonly logLevel: LogLevel;
  readonly corsOrigins: readonly string[];
  readonly dbStatementTimeoutMs: number;
  readonly dbPoolSize: number;
  /**
   * What stands between the service and PostgreSQL: `none` (PostgreSQL itself, or a pooler in session
   * mode) or `transaction` (a pooler in transaction mode: docs/operations.md#connection-budget).
   */
  readonly dbPooler: DbPooler;
  /**
   * Admission to the pools (docs/rate-limits.md#overload): how many expensive reads may run at once
   * on a pool; the rest of its connections are kept for cheap reads.
   */
  readonly admissionExpensiveReads: number;
  /**
   * How many expensive reads may run at once on a pool while their client is the only one using it
   * and no cheap read waits (a lone client uses what nobody else wants).
   */
  readonly admissionExpensiveReadsAlone: number;
  /** How many expensive reads one API client may run at once on a pool (a cap beside fair sharing). */
  readonly admissionExpensivePerClient: number;
  /** How long a read may wait for a connection in a queue that empties now and then. */
  readonly admissionWaitMs: number;
  /** How long a read may wait once its queue has stood for 100 ms without emptying (CoDel's target). */
  readonly admissionQueueTargetMs: number;
  /** How many reads of one client may wait per pool and lane; more are a 429 at once. */
  readonly admissionQueuePerClient: number;
  /** How many reads may wait per pool and lane; more are shed at once. */
  readonly admissionQueueLimit: number;
  /** How many requests of one connection are handled at once; the rest wait unread in its socket. */
  readonly httpPipelineDepth: number;
  /**
   * How many requests of one client (the credential it presents) are handled at once; the rest wait
   * unread in their sockets (docs/rate-limits.md#overload).
   */
  readonly httpClientInFlight: number;
  /** How many requests of all clients are handled at once; the rest wait unread, shared fairly among clients. */
  readonly httpInFlight: number;
  /**
   * How long a request may wait unread beyond those bounds before it is answered 429 or 503 (unless
   * its own connection still has a request running, which must be answered first).
   */
  readonly httpHoldMs: number;
  /**
   * Held requests of one connection, and of the process, beyond which the connection that holds
   * more is closed (its held requests dropped unanswered): what Node parsed from a socket's read
   * is kept in memory (docs/rate-limits.md#overload).
   */
  readonly httpHeldPerConnection: number;
  readonly httpHeldTotal: number;
  /**
   * How long a request may take from its start (past the gate) until its answer is written: a client
   * that stops reading its answer holds the request's place until then, when its connection is closed.
   */
  readonly httpSendTimeoutMs: number;
  readonly migrateOnStart: boolean;
  /** How long removal records are kept (docs/sync.md#removals): a position older than them is refused. */
  readonly syncRemovalsRetentionDays: number;
  /** Where the embedded PostgreSQL keeps its files. */
  readonly dataDir: string;
  /** How long a key lookup may be served from memory; the contract allows at most 5 s. */
  readonly authCacheTtlMs: number;
  /** Prefix of the rate-limit keys in Redis (lets several deployments share one Redis). */
  readonly redisKeyPrefix: string;
  /** After SIGTERM: how long to keep accepting requests while readiness already fails. */
  readonly shutdownDelayMs: number;
  /** After that: how long in-flight requests may take before connections are closed. */
  readonly shutdownTimeoutMs: number;
  /** How long a request's line and headers may take to arrive, from its first byte. */
  readonly httpHeadersTimeoutMs: number;
  /** How long a whole request (headers and body) may take to arrive; at least the headers timeout. */
  readonly httpRequestTimeoutMs: number;
}

/** Every environment variable the service reads (the README's configuration table). */
export const CONFIG_VARIABLES = [
  'PORT',
  'APP_ENV',
  'DATABASE_URL',
  'DATABASE_REPLICA_URLS',
  'REDIS_URL',
  'RATE_LIMIT_PER_MINUTE',
  'RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE',
  'BODY_LIMIT_BYTES',
  'TRUST_PROXY',
  'DOCS_ENABLED',
  'LOG_LEVEL',
  'CORS_ORIGINS',
  'DB_STATEMENT_TIMEOUT_MS',
  'DB_POOL_SIZE',
  'DB_POOLER',
  'ADMISSION_EXPENSIVE_READS',
  'ADMISSION_EXPENSIVE_READS_ALONE',
  'ADMISSION_EXPENSIVE_PER_CLIENT',
  'ADMISSION_WAIT_MS',
  'ADMISSION_QUEUE_TARGET_MS',
  'ADMISSION_QUEUE_PER_CLIENT',
  'ADMISSION_QUEUE_LIMIT',
  'HTTP_PIPELINE_DEPTH',
  'HTTP_CLIENT_IN_FLIGHT',
  'HTTP_IN_FLIGHT',
  'HTTP_HOLD_MS',
  'MIGRATE_ON_START',
  'SYNC_REMOVALS_RETENTION_DAYS',
  'DATA_DIR',
  'AUTH_CACHE_TTL_MS',
  'REDIS_KEY_PREFIX',
  'SHUTDOWN_DELAY_MS',
  'SHUTDOWN_TIMEOUT_MS',
  'HTTP_HEADERS_TIMEOUT_MS',
  'HTTP_REQUEST_TIMEOUT_MS',
] as const;

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`Invalid configuration: ${variable} ${problem}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

function raw(env: Env, name: string): string | undefined {
  const value = env[name];
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const value = raw(env, name);
  if (value === undefined) return fallback;
  if (!/^[0-9]+$/.test(value)) throw new ConfigError(name, `must be a whole number, got "${value}"`);
  const n = Number(value);
  if (n < min || n > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${n}`);
  return n;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const value = raw(env, name);
  if (value === undefined) return fallback;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new ConfigError(name, `must be "true" or "false", got "${value}"`);
}

function postgresUrl(name: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(name, 'must be a postgres:// URL');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new ConfigError(name, 'must be a postgres:// or postgresql:// URL');
  }
  return value;
}

function trustProxy(env: Env): boolean | number | string {
  const value = raw(env, 'TRUST_PROXY');
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  if (/^[0-9]+$/.test(value)) return Number(value);
  // Names (loopback, linklocal, uniquelocal), addresses and CIDR subnets, checked by the parser
  // Express itself uses, so that a typo stops the start here rather than inside Express.
  try {
    proxyAddr.compile(value.split(',').map((s) => s.trim()));
    return value;
  } catch {
    throw new ConfigError(
      'TRUST_PROXY',
      `must be false, true, a hop count or a list of addresses/subnets, got "${value}"`,
    );
  }
}

function redisUrl(env: Env): string | null {
  const value = raw(env, 'REDIS_URL');
  if (value === undefined) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError('REDIS_URL', `must be a redis:// or rediss:// URL, got "${value}"`);
  }
  if ((url.protocol !== 'redis:' && url.protocol !== 'rediss:') || url.hostname === '') {
    throw new ConfigError('REDIS_URL', `must be a redis:// or rediss:// URL with a host, got "${value}"`);
  }
  return value;
}

function redisKeyPrefix(env: Env): string {
  const value = raw(env, 'REDIS_KEY_PREFIX') ?? 'cia:ratelimit:';
  if (!/^[A-Za-z0-9:_.-]{1,64}$/.test(value))
    throw new ConfigError('REDIS_KEY_PREFIX', `must be 1 to 64 characters of A-Z a-z 0-9 : _ . -, got "${value}"`);
  return value;
}

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadConfig(env: Env = process.env, overrides: Partial<AppConfig> = {}): AppConfig {
  const appEnv = raw(env, 'APP_ENV') ?? 'development';
  if (appEnv !== 'development' && appEnv !== 'production') {
    throw new ConfigError('APP_ENV', `must be "development" or "production", got "${appEnv}"`);
  }
  const databaseUrlRaw = raw(env, 'DATABASE_URL');
  const databaseUrl = databaseUrlRaw === undefined ? null : postgresUrl('DATABASE_URL', databaseUrlRaw);
  const replicas = (raw(env, 'DATABASE_REPLICA_URLS') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((s) => postgresUrl('DATABASE_REPLICA_URLS', s));
  const logLevel = raw(env, 'LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel as LogLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }
  const corsOrigins = (raw(env, 'CORS_ORIGINS') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  for (const origin of corsOrigins) {
    if (!/^https?:\/\/[^/\s]+$/.test(origin)) {
      throw new ConfigError(
        'CORS_ORIGINS',
        `must be a comma-separated list of origins like https://shop.example, got "${origin}"`,
      );
    }
  }
  const httpHeadersTimeoutMs = integer(env, 'HTTP_HEADERS_TIMEOUT_MS', 10_000, 100, 600_000);
  const httpRequestTimeoutMs = integer(env, 'HTTP_REQUEST_TIMEOUT_MS', 10_000, 100, 600_000);
  // Node refuses a headers timeout longer than the request timeout, which covers the headers too.
  if (httpRequestTimeoutMs < httpHeadersTimeoutMs) {
    throw new ConfigError(
      'HTTP_REQUEST_TIMEOUT_MS',
      `must be at least HTTP_HEADERS_TIMEOUT_MS (${httpHeadersTimeoutMs}), got ${httpRequestTimeoutMs}`,
    );
  }
  const dbPoolSize = integer(env, 'DB_POOL_SIZE', 10, 1, 200);
  const dbPooler = raw(env, 'DB_POOLER') ?? 'none';
  if (dbPooler !== 'none' && dbPooler !== 'transaction')
    throw new ConfigError('DB_POOLER', `must be "none" or "transaction", got "${dbPooler}"`);
  const migrateOnStart = boolean(env, 'MIGRATE_ON_START', databaseUrl === null);
  // The migrations' lock is a session's: through a transaction pooler it would outlive the migration
  // on a server connection nobody ends.
  if (migrateOnStart && dbPooler === 'transaction')
    throw new ConfigError(
      'MIGRATE_ON_START',
      'must be false with DB_POOLER=transaction: run the migrations against PostgreSQL itself (docs/operations.md#connection-budget)',
    );
  // Cheap reads always keep at least one connection of the pool (expensive ones get one at least).
  const expensiveReads = integer(
    env,
    'ADMISSION_EXPENSIVE_READS',
    Math.max(1, Math.min(4, dbPoolSize - 2)),
    1,
    Math.max(1, dbPoolSize - 1),
  );
  // A lone client may use every connection but two (one at least): those are kept for the cheap read
  // that may come while its expensive reads run.
  const expensiveReadsAlone = integer(
    env,
    'ADMISSION_EXPENSIVE_READS_ALONE',
    Math.max(expensiveReads, dbPoolSize - 2),
    expensiveReads,
    Math.max(expensiveReads, dbPoolSize - 1),
  );
  const admissionWaitMs = integer(env, 'ADMISSION_WAIT_MS', 1000, 0, 60_000);
  const config: AppConfig = {
    port: integer(env, 'PORT', 3000, 1, 65535),
    appEnv,
    databaseUrl,
    databaseReplicaUrls: replicas,
    redisUrl: redisUrl(env),
    rateLimitPerMinute: integer(env, 'RATE_LIMIT_PER_MINUTE', 600, 1, 1_000_000),
    rateLimitUnauthenticatedPerMinute: integer(env, 'RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE', 60, 1, 1_000_000),
    bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES', 16384, 0, 100 * 1024 * 1024),
    trustProxy: trustProxy(env),
    docsEnabled: boolean(env, 'DOCS_ENABLED', true),
    compressionEnabled: boolean(env, 'COMPRESSION_ENABLED', true),
    compressionMinBytes: integer(env, 'COMPRESSION_MIN_BYTES', 1024, 0, 100 * 1024 * 1024),
    logLevel: logLevel as LogLevel,
    corsOrigins,
    dbStatementTimeoutMs: integer(env, 'DB_STATEMENT_TIMEOUT_MS', 5000, 1, 600_000),
    dbPoolSize,
    dbPooler,
    admissionExpensiveReads: expensiveReads,
    admissionExpensiveReadsAlone: expensiveReadsAlone,
    // No cap by default: a lone client may use the whole expensive capacity, and contending clients
    // share it fairly (docs/rate-limits.md#overload). Until issue 31 the default was 1, which held a
    // lone client to one search at a time however idle the database was.
    admissionExpensivePerClient: integer(
      env,
      'ADMISSION_EXPENSIVE_PER_CLIENT',
      expensiveReadsAlone,
      1,
      expensiveReadsAlone,
    ),
    admissionWaitMs,
    admissionQueueTargetMs: integer(env, 'ADMISSION_QUEUE_TARGET_MS', 50, 0, 60_000),
    admissionQueuePerClient: integer(env, 'ADMISSION_QUEUE_PER_CLIENT', 32, 0, 10_000),
    admissionQueueLimit: integer(env, 'ADMISSION_QUEUE_LIMIT', 128, 0, 100_000),
    httpPipelineDepth: integer(env, 'HTTP_PIPELINE_DEPTH', 1, 1, 1000),
    // Twice the pool: enough for a lone client to keep every connection busy while as many of its
    // answers are being written; a flood beyond it waits in its own sockets.
    httpClientInFlight: integer(env, 'HTTP_CLIENT_IN_FLIGHT', Math.max(4, 2 * dbPoolSize), 1, 100_000),
    httpInFlight: integer(env, 'HTTP_IN_FLIGHT', 256, 1, 100_000),
    // As long as a read may wait for a connection: to its client, a request held at the gate and a
    // read queued at the pool are the same wait, and either is refused once it has lasted that long.
    httpHoldMs: integer(env, 'HTTP_HOLD_MS', admissionWaitMs, 0, 60_000),
    httpHeldPerConnection: integer(env, 'HTTP_HELD_PER_CONNECTION', 64, 1, 100_000),
    httpHeldTotal: integer(env, 'HTTP_HELD_TOTAL', 4096, 1, 1_000_000),
    httpSendTimeoutMs: integer(env, 'HTTP_SEND_TIMEOUT_MS', 30_000, 1000, 3_600_000),
    migrateOnStart,
    syncRemovalsRetentionDays: integer(env, 'SYNC_REMOVALS_RETENTION_DAYS', 35, 1, 3650),
    dataDir: raw(env, 'DATA_DIR') ?? '.data',
    authCacheTtlMs: integer(env, 'AUTH_CACHE_TTL_MS', 2000, 0, 5000),
    redisKeyPrefix: redisKeyPrefix(env),
    shutdownDelayMs: integer(env, 'SHUTDOWN_DELAY_MS', 0, 0, 120_000),
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
    httpHeadersTimeoutMs,
    httpRequestTimeoutMs,
    ...overrides,
  };
  return Object.freeze(config);
}

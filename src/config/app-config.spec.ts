import { ConfigError, loadConfig } from './app-config.js';

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      appEnv: 'development',
      databaseUrl: null,
      databaseReplicaUrls: [],
      redisUrl: null,
      rateLimitPerMinute: 600,
      rateLimitUnauthenticatedPerMinute: 60,
      bodyLimitBytes: 16384,
      trustProxy: false,
      docsEnabled: true,
      logLevel: 'info',
      corsOrigins: [],
      dbStatementTimeoutMs: 5000,
      migrateOnStart: true,
      httpHeadersTimeoutMs: 10_000,
      httpRequestTimeoutMs: 10_000,
    });
    expect(loadConfig({ DATABASE_URL: 'postgres://x@h/db' }).migrateOnStart).toBe(false);
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      APP_ENV: 'production',
      DATABASE_URL: 'postgresql://u@h:5432/db',
      DATABASE_REPLICA_URLS: 'postgres://r1/db, postgres://r2/db',
      REDIS_URL: 'redis://127.0.0.1:6379',
      RATE_LIMIT_PER_MINUTE: '100',
      RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: '10',
      BODY_LIMIT_BYTES: '0',
      TRUST_PROXY: '1',
      DOCS_ENABLED: 'false',
      LOG_LEVEL: 'debug',
      CORS_ORIGINS: 'https://a.example,http://localhost:8080',
      DB_STATEMENT_TIMEOUT_MS: '2000',
      MIGRATE_ON_START: 'true',
      HTTP_HEADERS_TIMEOUT_MS: '3000',
      HTTP_REQUEST_TIMEOUT_MS: '4000',
    });
    expect(config).toMatchObject({
      port: 8080,
      appEnv: 'production',
      databaseReplicaUrls: ['postgres://r1/db', 'postgres://r2/db'],
      redisUrl: 'redis://127.0.0.1:6379',
      rateLimitPerMinute: 100,
      rateLimitUnauthenticatedPerMinute: 10,
      bodyLimitBytes: 0,
      trustProxy: 1,
      docsEnabled: false,
      logLevel: 'debug',
      corsOrigins: ['https://a.example', 'http://localhost:8080'],
      dbStatementTimeoutMs: 2000,
      migrateOnStart: true,
      httpHeadersTimeoutMs: 3000,
      httpRequestTimeoutMs: 4000,
    });
  });

  it('takes DB_POOLER none or transaction, and no migration on start through a transaction pooler', () => {
    const url = 'postgres://x@pooler/db';
    expect(loadConfig({ DATABASE_URL: url }).dbPooler).toBe('none');
    expect(loadConfig({ DATABASE_URL: url, DB_POOLER: 'transaction' }).dbPooler).toBe('transaction');
    expect(() => loadConfig({ DATABASE_URL: url, DB_POOLER: 'session' })).toThrow(
      'Invalid configuration: DB_POOLER must be "none" or "transaction", got "session"',
    );
    expect(() => loadConfig({ DATABASE_URL: url, DB_POOLER: 'transaction', MIGRATE_ON_START: 'true' })).toThrow(
      /^Invalid configuration: MIGRATE_ON_START must be false with DB_POOLER=transaction/,
    );
  });

  it('takes TRUST_PROXY as Express does: names, addresses and subnets', () => {
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8,fd00::1' }).trustProxy).toBe('loopback, 10.0.0.0/8,fd00::1');
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['APP_ENV', 'staging'],
    ['DATABASE_URL', 'mysql://x/y'],
    ['DATABASE_URL', 'not a url'],
    ['DATABASE_REPLICA_URLS', 'postgres://ok/db,http://bad'],
    ['REDIS_URL', 'localhost:6379'],
    ['RATE_LIMIT_PER_MINUTE', '0'],
    ['RATE_LIMIT_PER_MINUTE', '1.5'],
    ['BODY_LIMIT_BYTES', '-1'],
    ['DOCS_ENABLED', 'yes'],
    ['LOG_LEVEL', 'loud'],
    ['CORS_ORIGINS', '*'],
    ['DB_STATEMENT_TIMEOUT_MS', '0'],
    ['MIGRATE_ON_START', '1'],
    ['TRUST_PROXY', 'yes please!'],
    ['TRUST_PROXY', 'yes'],
    ['TRUST_PROXY', '10.0.0.0/33'],
    ['TRUST_PROXY', 'loopback,yes'],
    ['REDIS_URL', 'redis://127.0.0.1:99999'],
    ['REDIS_URL', 'redis://a b'],
    ['PORT', '0'],
    ['HTTP_HEADERS_TIMEOUT_MS', '0'],
    ['HTTP_REQUEST_TIMEOUT_MS', '5000000'],
    // Shorter than the default headers timeout (10 s), which it includes.
    ['HTTP_REQUEST_TIMEOUT_MS', '5000'],
  ])('refuses %s=%s with a message naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });
});

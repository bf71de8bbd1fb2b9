import './startup/tune-v8.js';
import { exitSoon } from './startup/exit-without-deadlock.js';
import { handOverStartingSignals } from './startup/starting-signals.js';
import 'reflect-metadata';
import type { Server } from 'node:http';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { AppModule } from './app.module.js';
import { configureApp, createHttpAdapter } from './app.setup.js';
import { type AppConfig, ConfigError, loadConfig } from './config/app-config.js';
import { type DemoKey, usableDemoKeys } from './startup/demo-keys.js';
import { prepareDatabase } from './startup/prepare-database.js';
import { verifyServerSettings } from './database/data-source-options.js';
import { ServiceSecrets } from './database/service-secrets.js';
import { SqlReader } from './database/sql-reader.js';
import { ShutdownState } from './health/shutdown-state.js';
import { ConnectionDrain } from './http/connection-drain.js';
import { isPortInUse, portHasListener, portInUseMessage, portIsFree } from './http/port-check.js';
import { createLogger, PinoNestLogger } from './observability/logger.js';

async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      return exitSoon(78);
    }
    throw error;
  }
  const logger = createLogger(config);
  const say = (line: string): void => console.log(line);
  // The embedded PostgreSQL's package stops it on a signal, then exits.
  if (config.databaseUrl === null) handOverStartingSignals();
  // A taken port is reported before the embedded database and the application take their time to start.
  if (!(await portIsFree(config.port))) {
    console.error(portInUseMessage(config.port, await portHasListener(config.port)));
    return exitSoon(1);
  }
  const prepared = await prepareDatabase(config, (line) => logger.info(line));
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forRoot(prepared.config),
    createHttpAdapter(),
    {
      bodyParser: false,
      logger: new PinoNestLogger(logger),
      // A failed start comes back here (Nest would exit itself), to end in the one line below.
      abortOnError: false,
    },
  );
  if (config.dbPooler === 'transaction')
    await verifyServerSettings(app.get(DataSource), { statementTimeoutMs: config.dbStatementTimeoutMs });
  configureApp(app, prepared.config, logger);
  // Traffic only once what requests need is ready (docs/rate-limits.md#overload): the port opens,
  // and readiness with it, after every connection of the pools is open and the signing key read.
  // What fails here (a database not migrated yet, say) is loaded when first needed instead, and
  // readiness says what is missing.
  const warmUpDeadline = Date.now() + 30_000;
  await app
    .get(SqlReader)
    .warmUp(warmUpDeadline)
    .then(() => app.get(ServiceSecrets).signingKey(warmUpDeadline))
    .catch((error: unknown) =>
      logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'warm-up incomplete'),
    );
  const drain = new ConnectionDrain(app.getHttpServer() as Server);
  try {
    await app.listen(config.port);
  } catch (error) {
    await app.close();
    await prepared.embedded?.stop();
    if (isPortInUse(error)) {
      console.error(portInUseMessage(config.port, await portHasListener(config.port)));
      return exitSoon(1);
    }
    throw error;
  }

  let stopping = false;
  /**
   * SIGTERM: readiness fails at once and no connection is kept alive any more (every response says
   * Connection: close); requests are still accepted for SHUTDOWN_DELAY_MS (while the load balancers
   * stop routing here), and after it for as long as they keep arriving (a balancer that is slow to
   * notice); once none has arrived for a second the server stops accepting and closes idle
   * connections; as soon as the requests in flight are answered (SHUTDOWN_TIMEOUT_MS after the delay
   * at most) the pools close and the process exits 0.
   */
  const stop = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: readiness now fails');
    app.get(ShutdownState).shuttingDown = true;
    drain.start();
    await new Promise((resolve) => setTimeout(resolve, config.shutdownDelayMs));
    await drain.close(config.shutdownTimeoutMs);
    await app.close();
    await prepared.embedded?.stop();
    logger.info('shut down cleanly');
    exitSoon(0);
  };
  // The embedded PostgreSQL stops after the drain, not at the signal (its package would stop it first).
  prepared.embedded?.leaveSignalsToCaller();
  handOverStartingSignals();
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  // A closed terminal: the same clean stop (and the embedded PostgreSQL is not left running).
  process.on('SIGHUP', () => void stop('SIGHUP'));

  const base = `http://localhost:${config.port}`;
  logger.info({ port: config.port, appEnv: config.appEnv, docs: config.docsEnabled }, 'listening');
  // Said at every start: nothing else would show that the budgets multiply with the processes.
  if (config.redisUrl === null && config.appEnv === 'production')
    logger.warn(
      { rateLimitPerMinute: config.rateLimitPerMinute },
      'REDIS_URL is not set: this process counts rate limits alone, so N processes allow N times each budget ' +
        '(docs/operations.md#operators-checklist)',
    );
  // The plain-text welcome is for a person at a terminal (npm start); a deployed server's stdout
  // holds JSON lines only.
  if (prepared.embedded === null && !process.stdout.isTTY) return;
  say('');
  // The base URL is the server's root, as the docs, openapi.json's servers and the TypeScript client
  // mean it: a base ending in /v1 made the client request /v1/v1/….
  say(`Catalog and Inventory Read API (${config.appEnv}) is listening on ${base}`);
  say(`Base URL: ${base} (every API path starts with /v1: ${base}/v1/catalog/products)`);
  if (config.docsEnabled) say(`API documentation: ${base}/docs`);
  // Only on the embedded database, whose data is the public demo data set.
  if (prepared.embedded !== null) printDemoKeys(base, await usableDemoKeys(app.get(DataSource), config.appEnv), say);
}

function printDemoKeys(base: string, usable: DemoKey[], say: (line: string) => void): void {
  if (usable.length === 0) return;
  say('');
  say('Demo API keys (from fixtures/demo.json, still valid in this database):');
  for (const { key, clientName, scopes, allowedStoreIds } of usable) {
    const stores = allowedStoreIds === null ? 'all stores' : allowedStoreIds.join(', ');
    say(`  ${key}  ${clientName}: ${scopes.join(', ')} (${stores})`);
  }
  say('');
  say('Try it:');
  say(`  curl -H "Authorization: Bearer ${usable[0].key}" "${base}/v1/catalog/products?pageSize=2"`);
  say('');
}

/** Whatever fails before the server listens: one line naming the cause, and a non-zero exit. */
main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
    return exitSoon(78);
  }
  console.error(`The service could not start: ${error instanceof Error ? error.message : String(error)}`);
  return exitSoon(1);
});

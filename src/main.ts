import 'reflect-metadata';
import { readFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module.js';
import { configureApp, createHttpAdapter } from './app.setup.js';
import { type AppConfig, ConfigError, loadConfig } from './config/app-config.js';
import { DEMO_DATASET_URL, prepareDatabase } from './database/prepare-database.js';
import { ShutdownState } from './health/shutdown-state.js';
import { ConnectionDrain } from './http/connection-drain.js';
import { createLogger, PinoNestLogger } from './observability/logger.js';

async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78);
    }
    throw error;
  }
  const logger = createLogger(config);
  const say = (line: string): void => console.log(line);
  const prepared = await prepareDatabase(config, (line) => logger.info(line));
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forRoot(prepared.config),
    createHttpAdapter(),
    {
      bodyParser: false,
      logger: new PinoNestLogger(logger),
    },
  );
  configureApp(app, prepared.config, logger);
  const drain = new ConnectionDrain(app.getHttpServer() as Server);
  await app.listen(config.port);

  let stopping = false;
  /**
   * SIGTERM: readiness fails at once and no connection is kept alive any more (every response says
   * Connection: close); requests are still accepted for SHUTDOWN_DELAY_MS (while the cluster stops
   * routing here), then the server stops accepting and closes idle connections; as soon as the
   * requests in flight are answered (at most SHUTDOWN_TIMEOUT_MS) the pools close and the process
   * exits 0.
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
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  const base = `http://localhost:${config.port}`;
  logger.info({ port: config.port, appEnv: config.appEnv, docs: config.docsEnabled }, 'listening');
  // The plain-text welcome is for a person at a terminal (npm start); a deployed server's stdout
  // holds JSON lines only.
  if (prepared.embedded === null && !process.stdout.isTTY) return;
  say('');
  say(`Catalog and Inventory Read API (${config.appEnv}) is listening on ${base}/v1`);
  if (config.docsEnabled) say(`API documentation: ${base}/docs`);
  if (prepared.embedded !== null) await printDemoKeys(base, say);
}

/** Only on the embedded database, whose data is the public demo data set. */
async function printDemoKeys(base: string, say: (line: string) => void): Promise<void> {
  const demo = JSON.parse(await readFile(DEMO_DATASET_URL, 'utf8')) as {
    apiClients?: {
      name: string;
      status: string;
      scopes: string[];
      allowedStoreIds: string[] | null;
      keys: { key: string; revokedAt: string | null; expiresAt: string | null }[];
    }[];
  };
  const usable = (demo.apiClients ?? []).flatMap((client) =>
    client.status === 'ACTIVE'
      ? client.keys
          .filter((k) => k.revokedAt === null && k.expiresAt === null)
          .slice(0, 1)
          .map((k) => ({ client, key: k.key }))
      : [],
  );
  if (usable.length === 0) return;
  say('');
  say('Demo API keys (development keys of fixtures/demo.json):');
  for (const { client, key } of usable) {
    const stores = client.allowedStoreIds === null ? 'all stores' : client.allowedStoreIds.join(', ');
    say(`  ${key}  ${client.name}: ${client.scopes.join(', ')} (${stores})`);
  }
  say('');
  say('Try it:');
  say(`  curl -H "Authorization: Bearer ${usable[0].key}" "${base}/v1/catalog/products?pageSize=2"`);
  say('');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

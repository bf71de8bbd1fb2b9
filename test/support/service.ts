import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from '../../src/app.module.js';
import { configureApp, createHttpAdapter } from '../../src/app.setup.js';
import { loadConfig } from '../../src/config/app-config.js';

export interface Service {
  /** `http://127.0.0.1:<port>` of the listening application. */
  base: string;
  close(): Promise<void>;
}

/**
 * The real application listening on a free port, on a database the test chose (one of its own
 * PostgreSQL servers, say): for tests that need real HTTP connections or a database they control.
 */
export async function startService(env: Record<string, string>, options: { port?: number } = {}): Promise<Service> {
  const config = loadConfig({ LOG_LEVEL: 'silent', ...env }, { authCacheTtlMs: 0 });
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), createHttpAdapter(), {
    bodyParser: false,
    logger: false,
  });
  configureApp(app, config);
  await app.listen(options.port ?? 0, '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  return { base: `http://127.0.0.1:${address.port}`, close: () => app.close() };
}

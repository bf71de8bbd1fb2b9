import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import type { DataSource } from 'typeorm';
import { AppModule } from '../../src/app.module.js';
import { configureApp } from '../../src/app.setup.js';
import { type AppConfig, loadConfig } from '../../src/config/app-config.js';
import { createDataSource } from '../../src/database/data-source-options.js';
import { importDataset } from '../../src/dataset/import-dataset.js';
import { createTestDatabase, dropTestDatabase } from './test-database.js';

export interface TestApp {
  app: NestExpressApplication;
  config: AppConfig;
  databaseUrl: string;
  /** A DataSource on the test database, for arranging data behind the API's back. */
  db: DataSource;
  /** GET with a bearer key (or none). */
  get(path: string, key?: string | null, headers?: Record<string, string>): request.Test;
  http(): ReturnType<typeof request>;
  close(): Promise<void>;
}

/** The real application (same modules, middleware, guards, pipe and filter) on a fresh database. */
export async function createTestApp(options: { dataset?: unknown; env?: Record<string, string>; config?: Partial<AppConfig> } = {}): Promise<TestApp> {
  const databaseUrl = await createTestDatabase();
  const db = createDataSource({ url: databaseUrl, poolSize: 2 });
  await db.initialize();
  if (options.dataset !== undefined) await importDataset(db, options.dataset, { replace: false });
  const config = loadConfig({ LOG_LEVEL: 'silent', ...options.env, DATABASE_URL: databaseUrl }, { authCacheTtlMs: 0, ...options.config });
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), { bodyParser: false, logger: false });
  configureApp(app, config);
  await app.init();
  const server = app.getHttpServer();
  return {
    app,
    config,
    databaseUrl,
    db,
    get(path, key = null, headers = {}) {
      const req = request(server).get(path);
      if (key !== null) req.set('Authorization', `Bearer ${key}`);
      for (const [name, value] of Object.entries(headers)) req.set(name, value);
      return req;
    },
    http: () => request(server),
    async close() {
      await app.close();
      await db.destroy();
      await dropTestDatabase(databaseUrl);
    },
  };
}

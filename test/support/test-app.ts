import 'reflect-metadata';
import { PATH_METADATA } from '@nestjs/common/constants.js';
import { ModulesContainer, NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import type { DataSource } from 'typeorm';
import { AppModule } from '../../src/app.module.js';
import { PUBLIC_ROUTE, REQUIRED_SCOPE } from '../../src/auth/require-scope.decorator.js';
import { configureApp, createHttpAdapter } from '../../src/app.setup.js';
import { type AppConfig, loadConfig } from '../../src/config/app-config.js';
import { createDataSource } from '../../src/database/data-source-options.js';
import { importDataset } from '../../src/dataset/import-dataset.js';
import { assertMatchesOpenApi } from './openapi-validator.js';
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
  head(path: string, key?: string | null): request.Test;
  close(): Promise<void>;
}

/** The real application (same modules, middleware, guards, pipe and filter) on a fresh database. */
export async function createTestApp(
  options: { dataset?: unknown; env?: Record<string, string>; config?: Partial<AppConfig> } = {},
): Promise<TestApp> {
  const databaseUrl = await createTestDatabase();
  const db = createDataSource({ url: databaseUrl, poolSize: 2 });
  await db.initialize();
  if (options.dataset !== undefined) await importDataset(db, options.dataset, { replace: false });
  const config = loadConfig(
    { LOG_LEVEL: 'silent', ...options.env, DATABASE_URL: databaseUrl },
    { authCacheTtlMs: 0, ...options.config },
  );
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), createHttpAdapter(), {
    bodyParser: false,
    logger: false,
  });
  configureApp(app, config);
  await app.init();
  const server = app.getHttpServer();
  return {
    app,
    config,
    databaseUrl,
    db,
    get(path, key = null, headers = {}) {
      // Every response of a documented operation is checked against openapi.json.
      const req = request(server)
        .get(path)
        .expect((res) => assertMatchesOpenApi('GET', path, res));
      if (key !== null) req.set('Authorization', `Bearer ${key}`);
      for (const [name, value] of Object.entries(headers)) req.set(name, value);
      return req;
    },
    http: () => request(server),
    // Other methods and HEAD are checked too when they hit a documented path.
    head: (path: string, key: string | null = null) => {
      const req = request(server)
        .head(path)
        .expect((res) => assertMatchesOpenApi('HEAD', path, res));
      if (key !== null) req.set('Authorization', `Bearer ${key}`);
      return req;
    },
    async close() {
      await app.close();
      await db.destroy();
      await dropTestDatabase(databaseUrl);
    },
  };
}

export interface RouteInfo {
  path: string;
  handler: string;
  scope: string | undefined;
  isPublic: boolean;
}

/** Every controller method of the running application with its path and declared scope. */
export function routeTable(t: TestApp): RouteInfo[] {
  const routes: RouteInfo[] = [];
  for (const module of t.app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as (new () => object) | null;
      if (!controller) continue;
      const base = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '').replace(/^\/|\/$/g, '');
      for (const name of Object.getOwnPropertyNames(controller.prototype)) {
        const handler = (controller.prototype as Record<string, unknown>)[name];
        if (name === 'constructor' || typeof handler !== 'function') continue;
        const sub = Reflect.getMetadata(PATH_METADATA, handler);
        if (sub === undefined) continue;
        const path = `/${[base, String(sub).replace(/^\/|\/$/g, '')].filter((s) => s !== '').join('/')}`;
        routes.push({
          path,
          handler: `${controller.name}.${name}`,
          scope: Reflect.getMetadata(REQUIRED_SCOPE, handler) ?? Reflect.getMetadata(REQUIRED_SCOPE, controller),
          isPublic: Boolean(
            Reflect.getMetadata(PUBLIC_ROUTE, handler) ?? Reflect.getMetadata(PUBLIC_ROUTE, controller),
          ),
        });
      }
    }
  }
  return routes;
}

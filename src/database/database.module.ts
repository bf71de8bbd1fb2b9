import { type DynamicModule, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { AppConfig } from '../config/app-config.js';
import { DatabaseIncarnation } from './database-incarnation.js';
import { dataSourceOptions } from './data-source-options.js';
import { ServiceSecrets } from './service-secrets.js';
import { SqlReader } from './sql-reader.js';

/**
 * The pools (TypeORM's, for the schema, migrations and tools too), the request path's SqlReader, the
 * service's secrets and which database it is.
 */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(config: AppConfig): DynamicModule {
    if (config.databaseUrl === null)
      throw new Error('DatabaseModule needs a database URL (main.ts starts the embedded one first)');
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRoot({
          ...dataSourceOptions({
            url: config.databaseUrl,
            replicaUrls: config.databaseReplicaUrls,
            poolSize: config.dbPoolSize,
            statementTimeoutMs: config.dbStatementTimeoutMs,
            serial: true,
            pooler: config.dbPooler,
          }),
          // Retrying only delays a start that cannot succeed; the orchestrator restarts the pod.
          retryAttempts: 0,
        }),
      ],
      providers: [SqlReader, ServiceSecrets, DatabaseIncarnation],
      exports: [SqlReader, ServiceSecrets, DatabaseIncarnation],
    };
  }
}

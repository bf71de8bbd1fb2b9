import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { ApiKeyGuard } from './auth/api-key.guard.js';
import { AuthModule } from './auth/auth.module.js';
import { ScopeGuard } from './auth/scope.guard.js';
import { CatalogModule } from './catalog/catalog.module.js';
import type { AppConfig } from './config/app-config.js';
import { ConfigModule } from './config/config.module.js';
import { DatabaseModule } from './database/database.module.js';
import { HealthModule } from './health/health.module.js';
import { InventoryModule } from './inventory/inventory.module.js';
import { ObservabilityModule } from './observability/observability.module.js';
import { ListsModule } from './lists/lists.module.js';
import { RowWritersModule } from './row-writers/row-writers.module.js';
import { ErrorEnvelopeFilter } from './http/error-envelope.filter.js';
import { ParamsValidationPipe } from './params/params-validation.pipe.js';
import { RateLimitModule } from './rate-limit/rate-limit.module.js';
import { TenancyModule } from './tenancy/tenancy.module.js';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule.forRoot(config),
        ObservabilityModule,
        HealthModule,
        TenancyModule,
        ListsModule,
        RowWritersModule,
        AuthModule,
        RateLimitModule,
        CatalogModule,
        InventoryModule,
      ],
      providers: [
        // Order of checks: authentication (401) and the rate limit (429) in RateLimitMiddleware (mounted on /v1 by configureApp) and
        // ApiKeyGuard, then scope (403); the pipe (400) after guards; stores and resources (404) in services.
        { provide: APP_GUARD, useExisting: ApiKeyGuard },
        { provide: APP_GUARD, useExisting: ScopeGuard },
        { provide: APP_PIPE, useClass: ParamsValidationPipe },
        { provide: APP_FILTER, useClass: ErrorEnvelopeFilter },
      ],
    };
  }
}

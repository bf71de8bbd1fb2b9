import { Module } from '@nestjs/common';
import { ApiKeyGuard } from './api-key.guard.js';
import { ApiKeyService } from './api-key.service.js';
import { ApiKeysRepository } from './api-keys.repository.js';
import { CallerResolver } from './caller-resolver.js';
import { ScopeGuard } from './scope.guard.js';

@Module({
  providers: [ApiKeysRepository, ApiKeyService, CallerResolver, ApiKeyGuard, ScopeGuard],
  exports: [ApiKeyService, CallerResolver, ApiKeyGuard, ScopeGuard],
})
export class AuthModule {}

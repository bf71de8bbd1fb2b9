import { Module } from '@nestjs/common';
import { ApiKeyGuard } from './api-key.guard.js';
import { ApiKeyService } from './api-key.service.js';
import { ScopeGuard } from './scope.guard.js';

@Module({
  providers: [ApiKeyService, ApiKeyGuard, ScopeGuard],
  exports: [ApiKeyService, ApiKeyGuard, ScopeGuard],
})
export class AuthModule {}

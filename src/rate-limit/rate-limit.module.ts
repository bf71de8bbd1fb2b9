import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { RateLimitMiddleware } from './rate-limit.middleware.js';
import { RateLimitStore } from './rate-limit.store.js';

@Module({
  imports: [AuthModule],
  providers: [RateLimitStore, RateLimitMiddleware],
  exports: [RateLimitStore, RateLimitMiddleware],
})
export class RateLimitModule {}

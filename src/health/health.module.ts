import { Global, Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthController } from './health.controller.js';
import { IndexController } from './index.controller.js';
import { MigrationState } from './migration-state.js';
import { ShutdownState } from './shutdown-state.js';

@Global()
@Module({
  imports: [TerminusModule.forRoot({ logger: false })],
  controllers: [HealthController, IndexController],
  providers: [ShutdownState, MigrationState],
  exports: [ShutdownState],
})
export class HealthModule {}

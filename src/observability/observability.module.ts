import { Global, Module } from '@nestjs/common';
import { ADMISSION_REFUSALS } from '../admission/refusals.js';
import { MetricsController } from './metrics.controller.js';
import { MetricsService } from './metrics.service.js';

@Global()
@Module({
  controllers: [MetricsController],
  providers: [MetricsService, { provide: ADMISSION_REFUSALS, useExisting: MetricsService }],
  exports: [MetricsService, ADMISSION_REFUSALS],
})
export class ObservabilityModule {}

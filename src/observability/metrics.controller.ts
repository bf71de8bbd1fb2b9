import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { PublicRoute } from '../auth/require-scope.decorator.js';
import { MetricsService } from './metrics.service.js';

/** Prometheus text format, for the cluster's scraper; outside /v1 and without a key. */
@ApiExcludeController()
@PublicRoute()
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get()
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  @Header('Cache-Control', 'no-store')
  scrape(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}

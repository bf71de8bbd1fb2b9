import { Controller, Get, Res, ServiceUnavailableException } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { HealthCheck, type HealthCheckResult, HealthCheckService, type HealthIndicatorFunction, TypeOrmHealthIndicator } from '@nestjs/terminus';
import type { Response } from 'express';
import { PublicRoute } from '../auth/require-scope.decorator.js';
import { ShutdownState } from './shutdown-state.js';

/** Kubernetes probes; outside /v1 and without a key. */
@ApiExcludeController()
@PublicRoute()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly db: TypeOrmHealthIndicator,
    private readonly shutdown: ShutdownState,
  ) {}

  /** The process is alive and serving HTTP. */
  @Get('live')
  @HealthCheck()
  live(@Res({ passthrough: true }) res: Response): Promise<unknown> {
    return this.check(res, []);
  }

  /** Ready for traffic: PostgreSQL answers and the process is not shutting down. */
  @Get('ready')
  @HealthCheck()
  ready(@Res({ passthrough: true }) res: Response): Promise<unknown> {
    return this.check(res, [
      async () => {
        if (this.shutdown.shuttingDown) throw new ServiceUnavailableException({ status: 'error', info: {}, error: { shutdown: { status: 'down' } } });
        return { shutdown: { status: 'up' } };
      },
      () => this.db.pingCheck('database', { timeout: 1500 }),
    ]);
  }

  /** Terminus's own body, with 503 when a check fails (not the /v1 error envelope). */
  private async check(res: Response, indicators: HealthIndicatorFunction[]): Promise<HealthCheckResult | string | object> {
    res.setHeader('Cache-Control', 'no-store');
    try {
      return await this.health.check(indicators);
    } catch (error) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      res.status(503);
      return error.getResponse();
    }
  }
}

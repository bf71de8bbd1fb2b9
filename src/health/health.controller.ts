import { Controller, Get, Header, Res, ServiceUnavailableException } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import {
  HealthCheck,
  type HealthCheckResult,
  HealthCheckService,
  type HealthIndicatorFunction,
  type HealthIndicatorResult,
  TypeOrmHealthIndicator,
} from '@nestjs/terminus';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';
import type { Response } from 'express';
import { PublicRoute } from '../auth/require-scope.decorator.js';
import { RowWritersState } from '../row-writers/row-writers-state.js';
import { MigrationState } from './migration-state.js';
import { ShutdownState } from './shutdown-state.js';

const PING_TIMEOUT_MS = 1500;
const ALIVE = JSON.stringify({ status: 'ok', info: {}, error: {}, details: {} });

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Kubernetes probes; outside /v1 and without a key. */
@ApiExcludeController()
@PublicRoute()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly db: TypeOrmHealthIndicator,
    private readonly shutdown: ShutdownState,
    private readonly migrations: MigrationState,
    private readonly rowWriters: RowWritersState,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /**
   * The process is alive and serving HTTP: terminus's body for no checks, written as a constant (a
   * liveness probe checks nothing, so it should cost nothing either).
   */
  @Get('live')
  @Header('Cache-Control', 'no-store')
  @Header('Content-Type', 'application/json; charset=utf-8')
  live(): string {
    return ALIVE;
  }

  /**
   * Ready for traffic: PostgreSQL answers (the primary and every read replica), every migration is
   * applied, what the row writers rely on holds (RowWritersState), and the process is not shutting down.
   */
  @Get('ready')
  @HealthCheck()
  ready(@Res({ passthrough: true }) res: Response): Promise<unknown> {
    return this.check(res, [
      async () => {
        if (this.shutdown.shuttingDown)
          throw new ServiceUnavailableException({ status: 'error', info: {}, error: { shutdown: { status: 'down' } } });
        return { shutdown: { status: 'up' } };
      },
      () => this.db.pingCheck('database', { timeout: PING_TIMEOUT_MS }),
      () => this.replicasCheck(),
      () => this.migrationsCheck(),
      async () => {
        if (!this.rowWriters.intact)
          throw new ServiceUnavailableException({
            status: 'error',
            info: {},
            error: { rowWriters: { status: 'down' } },
          });
        return { rowWriters: { status: 'up' } };
      },
    ]);
  }

  private async migrationsCheck(): Promise<HealthIndicatorResult> {
    const pending = await this.migrations.pending().catch(() => null);
    // null: the database did not answer, which the database check reports.
    if (pending === null) return {};
    return { migrations: { status: pending.length === 0 ? 'up' : 'down' } };
  }

  /** /v1 reads go to the replicas when there are any, so each of them must answer too. */
  private async replicasCheck(): Promise<HealthIndicatorResult> {
    const pools = ((this.dataSource.driver as PostgresDriver).slaves ?? []) as Pool[];
    const results = await Promise.all(
      pools.map((pool) =>
        withTimeout(pool.query('SELECT 1'), PING_TIMEOUT_MS).then(
          () => true,
          () => false,
        ),
      ),
    );
    const replicas = {
      status: results.every(Boolean) ? 'up' : 'down',
      answering: results.filter(Boolean).length,
      of: results.length,
    } as const;
    if (replicas.status === 'down')
      throw new ServiceUnavailableException({ status: 'error', info: {}, error: { replicas } });
    return { replicas };
  }

  /**
   * Terminus's own body, with 503 when a check fails (not the /v1 error envelope). A dependency that
   * is down is named with its status and nothing more: the probe needs no key, so the driver's text
   * (which carries addresses) is not shown.
   */
  private async check(
    res: Response,
    indicators: HealthIndicatorFunction[],
  ): Promise<HealthCheckResult | string | object> {
    res.setHeader('Cache-Control', 'no-store');
    try {
      return await this.health.check(indicators);
    } catch (error) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      res.status(503);
      return withoutCauses(error.getResponse());
    }
  }
}

/** The fields of a check's entry that a caller of the probe may see. */
const SHOWN = new Set(['status', 'answering', 'of']);

/** `{ status, info, error, details }` with each check's entry cut down to SHOWN. */
function withoutCauses(body: string | object): string | object {
  if (typeof body !== 'object') return body;
  const shown = (entry: object): object => Object.fromEntries(Object.entries(entry).filter(([key]) => SHOWN.has(key)));
  const cut = (checks: object): object =>
    Object.fromEntries(Object.entries(checks).map(([name, entry]) => [name, shown(entry as object)]));
  return Object.fromEntries(
    Object.entries(body).map(([part, value]) => [
      part,
      typeof value === 'object' && value !== null ? cut(value) : value,
    ]),
  );
}

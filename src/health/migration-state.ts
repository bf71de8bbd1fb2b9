import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';

/** PostgreSQL's undefined_table: no migration was ever applied. */
const UNDEFINED_TABLE = '42P01';

/**
 * Whether the database has every migration this build knows. Without them every /v1 request would
 * fail on a missing table or column, so start-up says so and readiness fails until they are applied
 * (by `npm run db:migrate`, the init container or the migration Job). Once complete, never asked again.
 */
@Injectable()
export class MigrationState implements OnApplicationBootstrap {
  private readonly logger = new Logger('Migrations');
  private complete = false;
  private reported = false;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The names of this build's migrations that the database has not applied. */
  async pending(): Promise<string[]> {
    if (this.complete) return [];
    const table = this.dataSource.options.migrationsTableName ?? 'migrations';
    const applied = await this.dataSource.query(`SELECT name FROM "${table}"`).then(
      (rows: { name: string }[]) => new Set(rows.map((r) => r.name)),
      (error: { driverError?: { code?: string } }) => {
        if (error.driverError?.code === UNDEFINED_TABLE) return new Set<string>();
        throw error;
      },
    );
    const pending = this.dataSource.migrations.map((m) => m.name ?? m.constructor.name).filter((n) => !applied.has(n));
    if (pending.length === 0) {
      this.complete = true;
      if (this.reported) this.logger.log('Every migration is applied now: ready for traffic');
    }
    return pending;
  }

  async onApplicationBootstrap(): Promise<void> {
    // A database that does not answer is reported by readiness; the service starts all the same.
    const pending = await this.pending().catch(() => []);
    if (pending.length === 0) return;
    this.reported = true;
    this.logger.warn(
      `The database is not migrated: ${pending.length} migration${pending.length === 1 ? '' : 's'} of this ` +
        `version ${pending.length === 1 ? 'is' : 'are'} not applied (${pending.join(', ')}). Run ` +
        '`npm run db:migrate` (node dist/tools/cli/db-migrate.js) against this database, or start with ' +
        'MIGRATE_ON_START=true; /health/ready answers 503 and /v1 requests fail until then.',
    );
  }
}

import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { RECORD_SERVER_START_SQL } from '../schema/sync-state.js';

/** How often removal records past the window are pruned, and how many rows one statement deletes. */
export const PRUNE_EVERY_MS = 10 * 60 * 1000;
export const PRUNE_BATCH = 10_000;
/** How often the primary's start is recorded (a read, and one insert after each start of the server). */
export const RECORD_START_EVERY_MS = 5000;

/**
 * Prunes removal records older than SYNC_REMOVALS_RETENTION_DAYS, in batches of PRUNE_BATCH rows (a
 * short transaction each, rows another pruner holds skipped), and moves `sync_state.retained_from_xact`
 * to the newest transaction pruned in the same statement: a position at or below it is refused from
 * then on, so a round never misses a removal silently (docs/sync.md#removals). Every replica of the
 * service prunes; they skip each other's rows.
 *
 * Records the primary server's start as well (sync_server_starts), at the service's start and every
 * RECORD_START_EVERY_MS: an operator can say that a start continues the one recorded before it
 * (`npm run admin -- sync:restarted-in-place`, docs/sync.md#restarts-of-postgresql).
 */
@Injectable()
export class SyncHousekeeping implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('SyncHousekeeping');
  private timer: NodeJS.Timeout | undefined;
  private startsTimer: NodeJS.Timeout | undefined;
  private recording: Promise<unknown> = Promise.resolve();
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    let inFlight = false;
    const record = (): void => {
      // One at a time: on a stalled primary the ticks would pile up in the pool's queue.
      if (inFlight) return;
      inFlight = true;
      this.recording = this.recordServerStart()
        .catch((error: Error) => this.logger.warn(`recording the database server's start failed: ${error.message}`))
        .finally(() => (inFlight = false));
    };
    record();
    this.startsTimer = setInterval(record, RECORD_START_EVERY_MS).unref();
    this.timer = setInterval(() => {
      this.running = this.prune().catch((error: Error) =>
        this.logger.warn(`pruning removal records failed: ${error.message}`),
      );
    }, PRUNE_EVERY_MS).unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    clearInterval(this.startsTimer);
    await Promise.all([this.running, this.recording]);
  }

  /** Records the primary's start if it is not yet (RECORD_SERVER_START_SQL). */
  async recordServerStart(): Promise<void> {
    await this.dataSource.query(RECORD_SERVER_START_SQL);
  }

  /** Prunes until nothing past the window is left; returns how many records went. */
  async prune(): Promise<number> {
    let total = 0;
    for (const table of ['sync_removals', 'client_removals']) {
      for (;;) {
        const [{ n }] = await this.dataSource.query(
          `WITH gone AS (
             DELETE FROM public.${table} WHERE id IN (
               SELECT id FROM public.${table} WHERE removed_at < now() - make_interval(days => $1)
                ORDER BY removed_at LIMIT $2 FOR UPDATE SKIP LOCKED)
             RETURNING removed_xact),
           moved AS (
             UPDATE public.sync_state SET retained_from_xact = GREATEST(retained_from_xact, (SELECT max(removed_xact) FROM gone))
              WHERE EXISTS (SELECT 1 FROM gone))
           SELECT count(*)::int AS n FROM gone`,
          [this.config.syncRemovalsRetentionDays, PRUNE_BATCH],
        );
        total += n;
        if (n < PRUNE_BATCH) break;
      }
    }
    return total;
  }
}

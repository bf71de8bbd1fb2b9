import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A start of the primary PostgreSQL server the service has seen (src/schema/sync-state.ts,
 * SERVER_STARTED_SQL), and the earlier start an operator said it continues (`npm run admin --
 * sync:restarted-in-place`): positions handed out under that one are honoured under this one.
 */
@Entity({ name: 'sync_server_starts' })
export class SyncServerStart {
  /** pg_postmaster_start_time(), in microseconds since 1970. */
  @PrimaryColumn({ type: 'bigint' }) started: string;
  @Column({ name: 'seen_at', type: 'timestamptz', default: () => 'now()' }) seenAt: Date;
  /** The start this one continues (the server started again from its own files as it stopped). */
  @Column({ type: 'bigint', nullable: true }) continues: string | null;
}

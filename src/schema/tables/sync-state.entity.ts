import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One row: what makes sync positions fail safe (src/schema/sync-state.ts), written by the service's
 * triggers and migrations only.
 */
@Entity({ name: 'sync_state' })
export class SyncState {
  @PrimaryColumn({ type: 'boolean', default: true }) singleton: boolean;
  /** Positions at or below it are refused (a TRUNCATE, changes found outside the migrations). */
  @Column({ name: 'void_xact', type: 'bigint', default: 0 }) voidXact: string;
  /** The newest catalog change of the synced tables the service's migrations made themselves. */
  @Column({ name: 'guard_xact', type: 'bigint', default: 0 }) guardXact: string;
  /** The database where positions sealed before they named their database are honoured. */
  @Column({ name: 'legacy_incarnation', type: 'text' }) legacyIncarnation: string;
  /**
   * The primary server's start (microseconds since 1970) under which positions sealed before they named
   * it are honoured (the RestartRefused migration).
   */
  @Column({ name: 'legacy_server_started', type: 'bigint', default: 0 }) legacyServerStarted: string;
  /** Removal records up to it were pruned: a position at or below it is refused (the Removals migration). */
  @Column({ name: 'retained_from_xact', type: 'bigint', default: 0 }) retainedFromXact: string;
}

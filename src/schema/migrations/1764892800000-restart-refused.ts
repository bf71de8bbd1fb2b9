import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Positions name the start of the primary server they were handed out under (SERVER_STARTED_SQL in
 * src/schema/sync-state.ts), and are refused once it has started again: a server started from a copy
 * of its files (a cold copy, a snapshot, a base backup without recovery.signal) keeps every other
 * identity a position names, and went back in time (docs/sync.md#when-a-position-is-refused).
 *
 * Positions sealed before (which name no start) are honoured under the server's start as this
 * migration finds it, and refused after its next start like the others.
 *
 * `sync_server_starts` lists the starts of the primary the service has seen (it records the one it
 * reads every few seconds), and which earlier start an operator said a start continues
 * (`npm run admin -- sync:restarted-in-place`): positions of that one are honoured under it.
 *
 * A migration is a snapshot: the SQL is written out here rather than imported.
 */
export class RestartRefused1764892800000 implements MigrationInterface {
  name = 'RestartRefused1764892800000';

  async up(q: QueryRunner): Promise<void> {
    // The server's run: its start, or its last crash recovery (SERVER_STARTED_SQL).
    const started = `(extract(epoch FROM GREATEST(pg_postmaster_start_time(),
      (SELECT b.stats_reset FROM pg_stat_bgwriter b))) * 1000000)::bigint`;
    await q.query(`ALTER TABLE public.sync_state ADD COLUMN legacy_server_started bigint NOT NULL DEFAULT 0`);
    await q.query(`UPDATE public.sync_state SET legacy_server_started = ${started}`);
    await q.query(`CREATE TABLE public.sync_server_starts (
      started bigint PRIMARY KEY,
      seen_at timestamptz NOT NULL DEFAULT now(),
      continues bigint
    )`);
    await q.query(`INSERT INTO public.sync_server_starts (started) VALUES (${started})`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE public.sync_server_starts`);
    await q.query(`ALTER TABLE public.sync_state DROP COLUMN legacy_server_started`);
  }
}

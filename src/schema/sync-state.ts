import { STORED_FORM_FUNCTIONS } from './stored-row-functions.js';
import { SYNC_TABLES, TRIGGERS } from './sync-triggers.js';

/**
 * What makes sync positions fail safe (docs/sync.md#when-a-position-is-refused), in SQL that the
 * migration, `migrate()` and every page of a sync round share.
 *
 * `sync_state` (one row) holds:
 * - `void_xact`: positions at or below it are refused. A TRUNCATE of a synced table moves it to its
 *   own transaction (a statement trigger), and so does `migrate()` when it finds that triggers or
 *   columns of a synced table were changed outside the service's migrations.
 * - `guard_xact`: the newest change to the synced tables' triggers and columns that the service's
 *   migrations made themselves. A newer one (ALTER TABLE … DISABLE/ENABLE TRIGGER, an ALTER COLUMN
 *   that rewrites values, a restore that disabled triggers) voids every position up to it, on every
 *   server, without a write: the catalog rows carry the transaction that last changed them (xmin).
 * - `legacy_incarnation`: the database where positions sealed before positions named their database
 *   are still honoured (the one the FailSafeSync migration ran in).
 * - `legacy_server_started`: the start of the primary server (SERVER_STARTED_SQL) where positions
 *   sealed before they named the server's start are still honoured (the RestartRefused migration's).
 */

// to_regclass: a table a later migration creates is simply not there yet.
const tableList = SYNC_TABLES.map((t) => `to_regclass('public.${t}')`).join(', ');
// The wrappers stored rows are written with: replacing one changes rows without marking them.
const functionList = STORED_FORM_FUNCTIONS.map((f) => `to_regprocedure('public.${f.name}(${f.argument})')`).join(', ');

/**
 * The database a position comes from: the cluster (its system identifier: a new cluster, a restore
 * into one, a pg_upgrade), its timeline (a promoted replica), the database (a restore into another
 * database) and the sync_state table (a restore that recreated the schema). A streaming replica has its
 * primary's. On a standby the timeline is the newest one it replays or receives.
 */
export const INCARNATION_SQL = `(SELECT system_identifier FROM pg_control_system())::text || ':' ||
  (CASE WHEN pg_is_in_recovery()
        THEN GREATEST((SELECT timeline_id FROM pg_control_checkpoint()),
                      COALESCE((SELECT received_tli FROM pg_stat_wal_receiver), 0))
        ELSE ('x' || substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8))::bit(32)::int END)::text || ':' ||
  (SELECT oid FROM pg_database WHERE datname = current_database())::text || ':' ||
  'public.sync_state'::regclass::oid::text`;

/**
 * When the server's current run began, in microseconds since 1970: its start
 * (pg_postmaster_start_time()), or its last crash recovery, whichever is later. A crash of one backend
 * makes the postmaster run crash recovery without starting again: its start stays, but the shared
 * statistics are reset (pg_stat_bgwriter.stats_reset moves), and recovery may have lost what commits
 * had not reached the disk (synchronous_commit = off) and reuses the transaction ids whose records
 * had not (a rolled-back one). A server started from a copy of its files (a cold copy, a disk or VM
 * snapshot, a base backup started without recovery.signal) has the identity INCARNATION_SQL reads, but
 * not this. While it is the one a position was handed out under, the server has run without a stop
 * or a recovery since, so it cannot have gone back to an earlier state of its data; a restart cannot
 * be told from a start of such a copy, so a position handed out before either is refused
 * (docs/sync.md#when-a-position-is-refused). Resetting the shared statistics by hand counts as a new
 * run too (refusals, never drift). Null on a standby: its own run says nothing of its primary's.
 */
export const SERVER_STARTED_SQL = `CASE WHEN pg_is_in_recovery() THEN NULL
  ELSE (extract(epoch FROM GREATEST(pg_postmaster_start_time(),
          (SELECT b.stats_reset FROM pg_stat_bgwriter b))) * 1000000)::bigint::text END`;

/**
 * Records the primary's start, once (SyncHousekeeping runs it every few seconds, `npm run admin --
 * sync:restarted-in-place` before it looks for the start before): only a recorded start can be
 * continued. Writes nothing when it is recorded; nothing on a standby.
 */
export const RECORD_SERVER_START_SQL = `INSERT INTO public.sync_server_starts (started)
  SELECT s.started FROM (SELECT (${SERVER_STARTED_SQL})::bigint AS started) s
   WHERE s.started IS NOT NULL
     AND NOT EXISTS (SELECT 1 FROM public.sync_server_starts k WHERE k.started = s.started)
  ON CONFLICT (started) DO NOTHING`;

/**
 * The 64-bit id of the newest transaction that changed a trigger or a column of a synced table, or a
 * function its stored rows are written with (a catalog row's xmin is 32 bits: placed in the epoch that
 * makes it no later than the next id).
 */
export const CATALOG_XACT_SQL = `(SELECT COALESCE(max(
     CASE WHEN (n.e | x.id) > n.next THEN (n.e | x.id) - 4294967296 ELSE n.e | x.id END), 0)
   FROM (SELECT pg_snapshot_xmax(pg_current_snapshot())::text::bigint AS next,
                (pg_snapshot_xmax(pg_current_snapshot())::text::bigint >> 32) << 32 AS e) n,
        (SELECT t.xmin::text::bigint AS id FROM pg_trigger t WHERE t.tgrelid IN (${tableList})
         UNION ALL
         SELECT a.xmin::text::bigint FROM pg_attribute a WHERE a.attrelid IN (${tableList}) AND a.attnum > 0
         UNION ALL
         SELECT p.xmin::text::bigint FROM pg_proc p WHERE p.oid IN (${functionList})) x)`;

const declared = `(VALUES ${TRIGGERS.map((t) => `('public.${t.table}', '${t.name}', '${t.mode}')`).join(', ')}) d(tbl, name, mode)`;

/**
 * The foreign keys' own (internal) triggers of the synced tables that do not fire in ordinary sessions
 * (disabled, or ENABLE REPLICA): a write then bypasses the key (a VAT rate in use renamed, say) and may
 * change rows without marking them. Their catalog rows count as the service's triggers' do
 * (CATALOG_XACT_SQL): switching one off and on again voids older positions.
 */
const INTERNAL_OFF = `SELECT ri.tgrelid::regclass::text AS tbl, ri.tgname::text AS name, ri.tgenabled::text AS mode
   FROM pg_trigger ri WHERE ri.tgrelid IN (${tableList}) AND ri.tgisinternal AND ri.tgenabled NOT IN ('O', 'A')`;

/** Whether every declared trigger exists and fires in its declared mode, and every foreign key's trigger fires. */
export const TRIGGERS_OK_SQL = `((SELECT bool_and(t.tgenabled IS NOT DISTINCT FROM d.mode::"char")
   FROM ${declared}
   LEFT JOIN pg_trigger t ON t.tgrelid = to_regclass(d.tbl) AND t.tgname = d.name)
   AND NOT EXISTS (${INTERNAL_OFF}))`;

/**
 * Whether no other BEFORE ROW trigger on a synced table fires after the service's marker trigger
 * (triggers of one timing fire in name order): one that did could change a row, or its marker, after
 * the marker was set, and the change would reach no copy. An operator's own triggers that sort before
 * it, or fire AFTER, are fine.
 */
export const NO_LATER_BEFORE_TRIGGERS_SQL = `NOT EXISTS (
   SELECT 1 FROM pg_trigger t
     JOIN (VALUES ${TRIGGERS.filter((t) => t.name.endsWith('_mark_change'))
       .map((t) => `('public.${t.table}', '${t.name}')`)
       .join(', ')}) m(tbl, name) ON t.tgrelid = to_regclass(m.tbl)
    WHERE NOT t.tgisinternal AND t.tgenabled <> 'D' AND (t.tgtype & 3) = 3 AND t.tgname::text COLLATE "C" > m.name COLLATE "C"
      AND t.tgname NOT IN (${TRIGGERS.map((t) => `'${t.name}'`).join(', ')}))`;

/** The declared triggers that are missing or fire in another mode, as text (for an error message). */
export const TRIGGERS_WRONG_SQL = `SELECT d.tbl || '.' || d.name || ': ' || COALESCE(t.tgenabled::text, 'missing') AS wrong
   FROM ${declared}
   LEFT JOIN pg_trigger t ON t.tgrelid = to_regclass(d.tbl) AND t.tgname = d.name
  WHERE t.tgenabled IS DISTINCT FROM d.mode::"char"
  UNION ALL
 SELECT i.tbl || '.' || i.name || ': ' || i.mode FROM (${INTERNAL_OFF}) i`;

/**
 * Sets each declared trigger that exists to its declared mode (a restore or an operator may have
 * changed it; a migration runs it for the triggers that exist so far), and enables the foreign keys'
 * triggers of the synced tables found switched off (that needs a superuser, as switching them off did).
 */
export const SET_TRIGGER_MODES_SQL = `DO $modes$ DECLARE t record; BEGIN
  FOR t IN SELECT d.tbl, d.name, d.mode FROM ${declared}
             JOIN pg_trigger g ON g.tgrelid = to_regclass(d.tbl) AND g.tgname = d.name
            WHERE g.tgenabled <> d.mode::"char" LOOP
    EXECUTE format('ALTER TABLE %s %s TRIGGER %I', t.tbl,
      CASE t.mode WHEN 'A' THEN 'ENABLE ALWAYS' WHEN 'R' THEN 'ENABLE REPLICA' ELSE 'ENABLE' END, t.name);
  END LOOP;
  FOR t IN ${INTERNAL_OFF} LOOP
    EXECUTE format('ALTER TABLE %s ENABLE TRIGGER %I', t.tbl, t.name);
  END LOOP;
END $modes$`;

/**
 * What a page of a sync round checks first, in its snapshot: which positions it may honour, and what
 * the client ($2 of tenant $1) may see there.
 */
export const SYNC_GUARD_SQL = `SELECT ${INCARNATION_SQL} AS incarnation,
       st.legacy_incarnation AS "legacyIncarnation",
       ${SERVER_STARTED_SQL} AS "serverStarted",
       st.legacy_server_started::text AS "legacyServerStarted",
       (SELECT COALESCE(jsonb_object_agg(k.started::text, k.continues::text), '{}')
          FROM public.sync_server_starts k WHERE k.continues IS NOT NULL) AS "continuedStarts",
       (SELECT max(k.started)::text FROM public.sync_server_starts k) AS "latestStart",
       st.retained_from_xact::text AS "prunedThrough",
       GREATEST(st.void_xact, CASE WHEN cat.xact > st.guard_xact THEN cat.xact ELSE 0 END)::text AS "voidThrough",
       ${TRIGGERS_OK_SQL} AND ${NO_LATER_BEFORE_TRIGGERS_SQL} AS "triggersOk",
       pg_snapshot_xmin(pg_current_snapshot())::text AS horizon,
       c.id IS NOT NULL AS "clientExists", c.allowed_store_ids AS "allowedStoreIds",
       COALESCE(c.created_xact, 0)::text AS "clientCreated"
  FROM public.sync_state st
 CROSS JOIN (SELECT ${CATALOG_XACT_SQL} AS xact) cat
  LEFT JOIN public.api_clients c ON c.id = $2 AND c.tenant_id = $1`;

/** What SYNC_GUARD_SQL reads. */
export interface SyncGuardRow {
  readonly incarnation: string;
  readonly legacyIncarnation: string;
  /**
   * When the primary server started (SERVER_STARTED_SQL): read in the snapshot on the primary; null
   * on a standby, where the list engine reads it from the primary before and after the page.
   */
  readonly serverStarted: string | null;
  /** The primary's start under which positions sealed before they named it are honoured. */
  readonly legacyServerStarted: string;
  /**
   * Each start an operator said continues an earlier one (`sync:restarted-in-place`), and that one:
   * positions of the earlier start are honoured under the later (and so on, back along the chain).
   */
  readonly continuedStarts: Readonly<Record<string, string>>;
  /**
   * The latest start of the primary recorded in this snapshot: on a standby, what shows that it
   * replays the history of the primary's current run (a standby stranded on a history the primary
   * lost, when the primary was started from a copy, has not got its record).
   */
  readonly latestStart: string | null;
  /** Removal records up to this transaction were pruned: a position at or below it is refused. */
  readonly prunedThrough: string;
  /** Positions at or below this transaction are void. */
  readonly voidThrough: string;
  readonly triggersOk: boolean;
  readonly horizon: string;
  readonly clientExists: boolean;
  readonly allowedStoreIds: readonly string[] | null;
  /**
   * The transaction that created the client's row (0: made before it was kept, or no client): a
   * position sealed for another creation, or sealed for none and at or below it, may be an earlier
   * client's of its id (refuseUnsafe in src/lists/list-engine.ts).
   */
  readonly clientCreated: string;
}

/** What `migrate()` runs before the migrations: whatever changed the synced tables outside them voids positions. */
export const VOID_UNRECORDED_CHANGES_SQL = `UPDATE public.sync_state st
   SET void_xact = GREATEST(st.void_xact, cat.xact)
  FROM (SELECT ${CATALOG_XACT_SQL} AS xact) cat
 WHERE cat.xact > st.guard_xact`;

/** What `migrate()` runs after the migrations: the catalog as they left it is the service's own. */
export const RECORD_GUARD_SQL = `UPDATE public.sync_state SET guard_xact = ${CATALOG_XACT_SQL}`;

/** The exact product counts again (after triggers were found disabled, counts may have drifted). */
export const RECOUNT_PRODUCTS_SQL = [
  `DELETE FROM public.product_counts`,
  `INSERT INTO public.product_counts (tenant_id, store_id, is_active, n)
     SELECT tenant_id, store_id, is_active, count(*) FROM public.products GROUP BY 1, 2, 3`,
];

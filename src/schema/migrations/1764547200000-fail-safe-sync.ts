import type { MigrationInterface, QueryRunner } from 'typeorm';
import { INCARNATION_SQL, RECORD_GUARD_SQL, SET_TRIGGER_MODES_SQL } from '../sync-state.js';

/** The tables the synced lists read when this migration was written (later ones have their own triggers). */
const SYNC_TABLES = ['products', 'stock_levels', 'vat_rates', 'stores', 'api_clients', 'api_client_store_grants'];

/**
 * Every write path marks what it changes, or voids older positions (docs/sync.md#every-write-path):
 *
 * - Trigger functions name everything they read with its schema: a data-only restore (pg_dump sets
 *   an empty search_path) runs them instead of failing, so operators need not disable them.
 * - Markers are the trigger's, never the writer's: an INSERT (INSERT … SELECT of a kept copy, a COPY
 *   of every column, a restore) takes the inserting transaction, whatever change_xact it brings; an
 *   UPDATE that changes nothing keeps the old marker, one that changes anything (or asks for its own
 *   transaction, as the service's triggers do) takes its transaction. A marker never goes back.
 * - A stock level re-pointed to another product marks the product it left (that product's stock row
 *   now reads not_tracked), as a deleted one does.
 * - Every trigger fires ALWAYS (see sync-triggers.ts): under session_replication_role = replica and in
 *   a logical-replication apply worker too.
 * - A TRUNCATE of a synced table voids every position taken before it (sync_state.void_xact).
 * - Product counts are insert-only deltas: a writer never waits for another writer's count row (two
 *   long transactions on one store both proceed). A key's deltas are folded into one row once there
 *   are more than 32, skipping rows another transaction is folding (SKIP LOCKED), and only by
 *   READ COMMITTED writers (a REPEATABLE READ one would get serialization failures).
 */
export class FailSafeSync1764547200000 implements MigrationInterface {
  name = 'FailSafeSync1764547200000';

  async up(q: QueryRunner): Promise<void> {
    // Markers: the trigger's own, on insert and update.
    await q.query(`CREATE OR REPLACE FUNCTION public.mark_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT'
           OR NEW.change_xact = public.current_xact()
           OR to_jsonb(NEW) - 'search_text' - 'change_xact' IS DISTINCT FROM to_jsonb(OLD) - 'search_text' - 'change_xact' THEN
          NEW.change_xact := public.current_xact();
        ELSE
          NEW.change_xact := OLD.change_xact;
        END IF;
        RETURN NEW;
      END
    $$`);
    for (const table of ['products', 'stock_levels', 'vat_rates']) {
      await q.query(`DROP TRIGGER ${table}_mark_change ON public.${table}`);
      await q.query(`CREATE TRIGGER ${table}_mark_change BEFORE INSERT OR UPDATE ON public.${table}
        FOR EACH ROW EXECUTE FUNCTION public.mark_change()`);
    }
    await q.query(`CREATE OR REPLACE FUNCTION public.stock_levels_deleted_mark_product() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE public.products SET change_xact = public.current_xact() WHERE id = OLD.product_id;
        RETURN NULL;
      END
    $$`);
    await q.query(`CREATE TRIGGER stock_levels_repointed_mark_product AFTER UPDATE OF product_id ON public.stock_levels
      FOR EACH ROW WHEN (OLD.product_id IS DISTINCT FROM NEW.product_id)
      EXECUTE FUNCTION public.stock_levels_deleted_mark_product()`);

    // Schema-qualified bodies of the earlier trigger functions (same behaviour).
    await q.query(`CREATE OR REPLACE FUNCTION public.stock_levels_copy_product_active() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        SELECT p.is_active INTO NEW.product_is_active FROM public.products p WHERE p.id = NEW.product_id;
        RETURN NEW;
      END
    $$`);
    await q.query(`CREATE OR REPLACE FUNCTION public.products_share_active_with_stock() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE public.stock_levels SET product_is_active = NEW.is_active WHERE product_id = NEW.id;
        RETURN NULL;
      END
    $$`);
    await q.query(`CREATE OR REPLACE FUNCTION public.client_view(tenant text, allowed varchar[]) RETURNS SETOF text
      LANGUAGE sql STABLE AS $$
        SELECT s.id FROM public.stores s WHERE s.tenant_id = tenant AND (allowed IS NULL OR s.id = ANY(allowed))
      $$`);
    await q.query(`CREATE OR REPLACE FUNCTION public.grant_stores(client text, tenant text, stores text[]) RETURNS void
      LANGUAGE sql AS $$
        INSERT INTO public.api_client_store_grants (client_id, tenant_id, store_id)
        SELECT client, tenant, unnest(stores)
        ON CONFLICT (client_id, store_id) DO UPDATE SET granted_xact = public.current_xact()
      $$`);
    await q.query(`CREATE OR REPLACE FUNCTION public.api_clients_grant_widened() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM public.grant_stores(NEW.id, NEW.tenant_id, ARRAY(
          SELECT public.client_view(NEW.tenant_id, NEW.allowed_store_ids)
          EXCEPT SELECT public.client_view(OLD.tenant_id, OLD.allowed_store_ids)));
        RETURN NULL;
      END
    $$`);
    await q.query(`CREATE OR REPLACE FUNCTION public.stores_grant_created() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE c record;
      BEGIN
        FOR c IN SELECT id FROM public.api_clients
                  WHERE tenant_id = NEW.tenant_id AND (allowed_store_ids IS NULL OR NEW.id = ANY(allowed_store_ids)) LOOP
          PERFORM public.grant_stores(c.id, NEW.tenant_id, ARRAY[NEW.id::text]);
        END LOOP;
        RETURN NULL;
      END
    $$`);
    await q.query(`CREATE OR REPLACE FUNCTION public.api_keys_keep_revocation() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.revoked_at := LEAST(
          NEW.revoked_at,
          CASE WHEN TG_OP = 'UPDATE' THEN OLD.revoked_at END,
          (SELECT revoked_at FROM public.api_key_revocations WHERE key_digest = NEW.key_digest));
        IF NEW.revoked_at IS NOT NULL THEN
          INSERT INTO public.api_key_revocations (key_digest, revoked_at) VALUES (NEW.key_digest, NEW.revoked_at)
            ON CONFLICT (key_digest) DO UPDATE SET revoked_at = LEAST(public.api_key_revocations.revoked_at, EXCLUDED.revoked_at);
        END IF;
        RETURN NEW;
      END $$`);
    await q.query(`CREATE OR REPLACE FUNCTION public.api_clients_keep_revocation() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF (TG_OP = 'UPDATE' AND OLD.status = 'REVOKED')
           OR EXISTS (SELECT 1 FROM public.api_client_revocations WHERE client_id = NEW.id) THEN
          NEW.status := 'REVOKED';
        END IF;
        IF NEW.status = 'REVOKED' THEN
          INSERT INTO public.api_client_revocations (client_id, revoked_at) VALUES (NEW.id, now())
            ON CONFLICT (client_id) DO NOTHING;
        END IF;
        RETURN NEW;
      END $$`);

    // Product counts: insert-only deltas, folded without waiting.
    await q.query(`ALTER TABLE public.product_counts DROP CONSTRAINT product_counts_pkey`);
    await q.query(`ALTER TABLE public.product_counts ADD COLUMN id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY`);
    await q.query(
      `CREATE INDEX product_counts_key_idx ON public.product_counts (tenant_id, store_id, is_active) INCLUDE (n)`,
    );
    await q.query(`CREATE FUNCTION public.product_counts_fold(tenant text, store text, active boolean) RETURNS void
      LANGUAGE plpgsql AS $$
      BEGIN
        IF current_setting('transaction_isolation') <> 'read committed'
           OR (SELECT count(*) FROM (SELECT 1 FROM public.product_counts
                WHERE tenant_id = tenant AND store_id = store AND is_active = active LIMIT 33) k) <= 32 THEN
          RETURN;
        END IF;
        WITH folded AS (
          DELETE FROM public.product_counts c WHERE c.id IN (
            SELECT id FROM public.product_counts
             WHERE tenant_id = tenant AND store_id = store AND is_active = active FOR UPDATE SKIP LOCKED)
          RETURNING c.n)
        INSERT INTO public.product_counts (tenant_id, store_id, is_active, n)
          SELECT tenant, store, active, sum(n) FROM folded HAVING count(*) > 0;
      END
    $$`);
    // A statement trigger cannot name a transition table it does not have: each operation its own.
    await q.query(`DROP TRIGGER product_counts_insert ON public.products`);
    await q.query(`DROP TRIGGER product_counts_update ON public.products`);
    await q.query(`DROP TRIGGER product_counts_delete ON public.products`);
    await q.query(`CREATE FUNCTION public.product_counts_insert() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE k record;
      BEGIN
        INSERT INTO public.product_counts (tenant_id, store_id, is_active, n)
          SELECT tenant_id, store_id, is_active, count(*) FROM new_rows GROUP BY 1, 2, 3;
        FOR k IN SELECT DISTINCT tenant_id, store_id, is_active FROM new_rows LOOP
          PERFORM public.product_counts_fold(k.tenant_id, k.store_id, k.is_active);
        END LOOP;
        RETURN NULL;
      END
    $$`);
    await q.query(`CREATE FUNCTION public.product_counts_delete() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE k record;
      BEGIN
        INSERT INTO public.product_counts (tenant_id, store_id, is_active, n)
          SELECT tenant_id, store_id, is_active, -count(*) FROM old_rows GROUP BY 1, 2, 3;
        FOR k IN SELECT DISTINCT tenant_id, store_id, is_active FROM old_rows LOOP
          PERFORM public.product_counts_fold(k.tenant_id, k.store_id, k.is_active);
        END LOOP;
        RETURN NULL;
      END
    $$`);
    await q.query(`CREATE FUNCTION public.product_counts_update() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE k record;
      BEGIN
        INSERT INTO public.product_counts (tenant_id, store_id, is_active, n)
          SELECT tenant_id, store_id, is_active, sum(n) FROM (
            SELECT tenant_id, store_id, is_active, -1 AS n FROM old_rows
            UNION ALL SELECT tenant_id, store_id, is_active, 1 FROM new_rows) d
          GROUP BY 1, 2, 3 HAVING sum(n) <> 0;
        FOR k IN SELECT tenant_id, store_id, is_active FROM (
            SELECT tenant_id, store_id, is_active, -1 AS n FROM old_rows
            UNION ALL SELECT tenant_id, store_id, is_active, 1 FROM new_rows) d
          GROUP BY 1, 2, 3 HAVING sum(n) <> 0 LOOP
          PERFORM public.product_counts_fold(k.tenant_id, k.store_id, k.is_active);
        END LOOP;
        RETURN NULL;
      END
    $$`);
    await q.query(`DROP FUNCTION public.product_counts_apply()`);
    await q.query(`CREATE TRIGGER product_counts_insert AFTER INSERT ON public.products
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.product_counts_insert()`);
    await q.query(`CREATE TRIGGER product_counts_update AFTER UPDATE ON public.products
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.product_counts_update()`);
    await q.query(`CREATE TRIGGER product_counts_delete AFTER DELETE ON public.products
      REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION public.product_counts_delete()`);
    // Where statement triggers do not fire (a logical-replication apply worker), rows are counted.
    await q.query(`CREATE FUNCTION public.product_counts_row() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'UPDATE'
           AND (OLD.tenant_id, OLD.store_id, OLD.is_active) IS NOT DISTINCT FROM (NEW.tenant_id, NEW.store_id, NEW.is_active) THEN
          RETURN NULL;
        END IF;
        IF TG_OP IN ('DELETE', 'UPDATE') THEN
          INSERT INTO public.product_counts (tenant_id, store_id, is_active, n) VALUES (OLD.tenant_id, OLD.store_id, OLD.is_active, -1);
          PERFORM public.product_counts_fold(OLD.tenant_id, OLD.store_id, OLD.is_active);
        END IF;
        IF TG_OP IN ('INSERT', 'UPDATE') THEN
          INSERT INTO public.product_counts (tenant_id, store_id, is_active, n) VALUES (NEW.tenant_id, NEW.store_id, NEW.is_active, 1);
          PERFORM public.product_counts_fold(NEW.tenant_id, NEW.store_id, NEW.is_active);
        END IF;
        RETURN NULL;
      END
    $$`);
    await q.query(`CREATE TRIGGER product_counts_row AFTER INSERT OR UPDATE OR DELETE ON public.products
      FOR EACH ROW EXECUTE FUNCTION public.product_counts_row()`);
    await q.query(`CREATE OR REPLACE FUNCTION public.product_counts_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM public.product_counts;
        RETURN NULL;
      END
    $$`);

    // What no row trigger sees voids older positions.
    await q.query(`CREATE TABLE public.sync_state (
      singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
      void_xact bigint NOT NULL DEFAULT 0,
      guard_xact bigint NOT NULL DEFAULT 0,
      legacy_incarnation text NOT NULL
    )`);
    await q.query(`INSERT INTO public.sync_state (legacy_incarnation) VALUES (${INCARNATION_SQL})`);
    await q.query(`CREATE FUNCTION public.sync_void_positions() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE public.sync_state SET void_xact = GREATEST(void_xact, public.current_xact());
        RETURN NULL;
      END
    $$`);
    for (const table of SYNC_TABLES) {
      await q.query(`CREATE TRIGGER ${table}_truncate_voids_positions AFTER TRUNCATE ON public.${table}
        FOR EACH STATEMENT EXECUTE FUNCTION public.sync_void_positions()`);
    }
    await q.query(SET_TRIGGER_MODES_SQL);
    await q.query(RECORD_GUARD_SQL);
  }

  async down(q: QueryRunner): Promise<void> {
    const TABLES_AND_KEYS = [...SYNC_TABLES, 'api_keys'].map((t) => `'public.${t}'::regclass`).join(', ');
    for (const table of SYNC_TABLES) await q.query(`DROP TRIGGER ${table}_truncate_voids_positions ON public.${table}`);
    await q.query(`DROP FUNCTION public.sync_void_positions()`);
    await q.query(`DROP TABLE public.sync_state`);
    await q.query(`DROP TRIGGER product_counts_row ON public.products`);
    await q.query(`DROP FUNCTION public.product_counts_row()`);
    await q.query(`DROP TRIGGER product_counts_insert ON public.products`);
    await q.query(`DROP TRIGGER product_counts_update ON public.products`);
    await q.query(`DROP TRIGGER product_counts_delete ON public.products`);
    for (const op of ['insert', 'update', 'delete']) await q.query(`DROP FUNCTION public.product_counts_${op}()`);
    await q.query(`DROP FUNCTION public.product_counts_fold(text, text, boolean)`);
    // The earlier counts: one row per key, upserted.
    await q.query(`CREATE TEMP TABLE folded_counts ON COMMIT DROP AS
      SELECT tenant_id, store_id, is_active, sum(n) AS n FROM public.product_counts GROUP BY 1, 2, 3`);
    await q.query(`DELETE FROM public.product_counts`);
    await q.query(`DROP INDEX public.product_counts_key_idx`);
    await q.query(`ALTER TABLE public.product_counts DROP COLUMN id`);
    await q.query(`INSERT INTO public.product_counts SELECT * FROM folded_counts`);
    await q.query(`ALTER TABLE public.product_counts ADD PRIMARY KEY (tenant_id, store_id, is_active)`);
    await q.query(`CREATE FUNCTION public.product_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP IN ('DELETE', 'UPDATE') THEN
          INSERT INTO public.product_counts AS c (tenant_id, store_id, is_active, n)
            SELECT tenant_id, store_id, is_active, -count(*) FROM old_rows GROUP BY 1, 2, 3
            ON CONFLICT (tenant_id, store_id, is_active) DO UPDATE SET n = c.n + EXCLUDED.n;
        END IF;
        IF TG_OP IN ('INSERT', 'UPDATE') THEN
          INSERT INTO public.product_counts AS c (tenant_id, store_id, is_active, n)
            SELECT tenant_id, store_id, is_active, count(*) FROM new_rows GROUP BY 1, 2, 3
            ON CONFLICT (tenant_id, store_id, is_active) DO UPDATE SET n = c.n + EXCLUDED.n;
        END IF;
        RETURN NULL;
      END
    $$`);
    await q.query(`CREATE TRIGGER product_counts_insert AFTER INSERT ON public.products
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.product_counts_apply()`);
    await q.query(`CREATE TRIGGER product_counts_update AFTER UPDATE ON public.products
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.product_counts_apply()`);
    await q.query(`CREATE TRIGGER product_counts_delete AFTER DELETE ON public.products
      REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION public.product_counts_apply()`);
    await q.query(`DROP TRIGGER stock_levels_repointed_mark_product ON public.stock_levels`);
    await q.query(`CREATE OR REPLACE FUNCTION public.mark_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF to_jsonb(NEW) - 'search_text' - 'change_xact' IS DISTINCT FROM to_jsonb(OLD) - 'search_text' - 'change_xact' THEN
          NEW.change_xact := current_xact();
        END IF;
        RETURN NEW;
      END
    $$`);
    for (const table of ['products', 'stock_levels', 'vat_rates']) {
      await q.query(`DROP TRIGGER ${table}_mark_change ON public.${table}`);
      await q.query(`CREATE TRIGGER ${table}_mark_change BEFORE UPDATE ON public.${table}
        FOR EACH ROW EXECUTE FUNCTION public.mark_change()`);
    }
    // Firing modes back to the default (the schema-qualified bodies stay: same behaviour).
    await q.query(`DO $modes$ DECLARE t record; BEGIN
      FOR t IN SELECT g.tgrelid::regclass AS tbl, g.tgname FROM pg_trigger g
                WHERE NOT g.tgisinternal AND g.tgenabled <> 'O' AND g.tgrelid = ANY(ARRAY[${TABLES_AND_KEYS}]) LOOP
        EXECUTE format('ALTER TABLE %s ENABLE TRIGGER %I', t.tbl, t.tgname);
      END LOOP;
    END $modes$`);
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';
import { RECORD_GUARD_SQL, SET_TRIGGER_MODES_SQL } from '../sync-state.js';

/**
 * Removals reach a copy (docs/sync.md#removals): whatever takes a product out of a client's view is
 * recorded, by triggers that fire ALWAYS, whoever writes.
 *
 * - `sync_removals`: a product left a store (deleted, or moved to another store), with the transaction
 *   and time. Every client that sees the store learns it from here.
 * - `client_removals`: what left ONE client's view when a store did (its allow-list narrowed, or the
 *   store was deleted): the products in the store at that moment and the store's recorded removals
 *   still kept, copied with the narrowing's transaction (a client whose position is older learns
 *   them all; the store itself is no longer in its view, so it could not read them where they are).
 *   Its store column is `former_store_id`: these rows are the client's, bound by its tenant and id,
 *   not by a store it may still see.
 * - `sync_state.retained_from_xact`: pruning (SYNC_REMOVALS_RETENTION_DAYS) removes records up to it;
 *   a position at or below it is refused, so nothing pruned is missed silently.
 *
 * Deleting products records them per statement (one INSERT … SELECT from the transition table); where
 * statement triggers do not fire (a logical-replication apply worker) a row trigger does it instead.
 */
export class Removals1764633600000 implements MigrationInterface {
  name = 'Removals1764633600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE public.sync_removals (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      tenant_id opaque_id NOT NULL,
      store_id opaque_id NOT NULL,
      product_id opaque_id NOT NULL,
      removed_xact bigint NOT NULL DEFAULT public.current_xact(),
      removed_at timestamptz(3) NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE INDEX sync_removals_tenant_xact_idx ON public.sync_removals (tenant_id, removed_xact)
      INCLUDE (store_id, product_id)`);
    await q.query(`CREATE INDEX sync_removals_store_idx ON public.sync_removals (tenant_id, store_id, removed_xact)
      INCLUDE (product_id)`);
    await q.query(`CREATE INDEX sync_removals_removed_at_idx ON public.sync_removals (removed_at)`);
    await q.query(`CREATE TABLE public.client_removals (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      client_id opaque_id NOT NULL REFERENCES public.api_clients(id) ON DELETE CASCADE,
      tenant_id opaque_id NOT NULL,
      former_store_id opaque_id NOT NULL,
      product_id opaque_id NOT NULL,
      removed_xact bigint NOT NULL DEFAULT public.current_xact(),
      removed_at timestamptz(3) NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE INDEX client_removals_client_xact_idx ON public.client_removals (tenant_id, client_id, removed_xact)
      INCLUDE (former_store_id, product_id)`);
    await q.query(`CREATE INDEX client_removals_removed_at_idx ON public.client_removals (removed_at)`);
    await q.query(`ALTER TABLE public.sync_state ADD COLUMN retained_from_xact bigint NOT NULL DEFAULT 0`);

    // Products that left a store.
    await q.query(`CREATE FUNCTION public.products_record_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO public.sync_removals (tenant_id, store_id, product_id)
          SELECT tenant_id, store_id, id FROM old_rows;
        RETURN NULL;
      END
    $$`);
    await q.query(`CREATE TRIGGER products_record_deleted AFTER DELETE ON public.products
      REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION public.products_record_deleted()`);
    await q.query(`CREATE FUNCTION public.products_record_left() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' OR (OLD.tenant_id, OLD.store_id) IS DISTINCT FROM (NEW.tenant_id, NEW.store_id) THEN
          INSERT INTO public.sync_removals (tenant_id, store_id, product_id) VALUES (OLD.tenant_id, OLD.store_id, OLD.id);
        END IF;
        RETURN NULL;
      END
    $$`);
    // Moves, row by row (few); deletions under replication, row by row too.
    await q.query(`CREATE TRIGGER products_record_moved AFTER UPDATE OF store_id, tenant_id ON public.products
      FOR EACH ROW WHEN ((OLD.tenant_id, OLD.store_id) IS DISTINCT FROM (NEW.tenant_id, NEW.store_id))
      EXECUTE FUNCTION public.products_record_left()`);
    await q.query(`CREATE TRIGGER products_record_deleted_row AFTER DELETE ON public.products
      FOR EACH ROW EXECUTE FUNCTION public.products_record_left()`);

    // What left one client's view with a store.
    await q.query(`CREATE FUNCTION public.record_client_removals(client text, tenant text, store text) RETURNS void
      LANGUAGE sql AS $$
        INSERT INTO public.client_removals (client_id, tenant_id, former_store_id, product_id)
        SELECT client, tenant, store, id FROM public.products WHERE tenant_id = tenant AND store_id = store
        UNION
        SELECT client, tenant, store, product_id FROM public.sync_removals WHERE tenant_id = tenant AND store_id = store
      $$`);
    await q.query(`CREATE FUNCTION public.api_clients_view_narrowed() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE s text;
      BEGIN
        FOR s IN SELECT public.client_view(OLD.tenant_id, OLD.allowed_store_ids)
                 EXCEPT SELECT public.client_view(NEW.tenant_id, NEW.allowed_store_ids) LOOP
          PERFORM public.record_client_removals(NEW.id, OLD.tenant_id, s);
        END LOOP;
        RETURN NULL;
      END
    $$`);
    await q.query(`CREATE TRIGGER api_clients_view_narrowed AFTER UPDATE OF allowed_store_ids, tenant_id ON public.api_clients
      FOR EACH ROW WHEN (OLD.allowed_store_ids IS DISTINCT FROM NEW.allowed_store_ids OR OLD.tenant_id <> NEW.tenant_id)
      EXECUTE FUNCTION public.api_clients_view_narrowed()`);
    // A deleted store leaves every view that held it: recorded before the row goes, while its products
    // (which the foreign key's cascade deletes after) are still there to be copied.
    await q.query(`CREATE FUNCTION public.stores_removed_from_views() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE c record;
      BEGIN
        FOR c IN SELECT id FROM public.api_clients
                  WHERE tenant_id = OLD.tenant_id AND (allowed_store_ids IS NULL OR OLD.id = ANY(allowed_store_ids)) LOOP
          PERFORM public.record_client_removals(c.id, OLD.tenant_id, OLD.id);
        END LOOP;
        RETURN OLD;
      END
    $$`);
    await q.query(`CREATE TRIGGER stores_removed_from_views BEFORE DELETE ON public.stores
      FOR EACH ROW EXECUTE FUNCTION public.stores_removed_from_views()`);
    for (const table of ['sync_removals', 'client_removals']) {
      await q.query(`CREATE TRIGGER ${table}_truncate_voids_positions AFTER TRUNCATE ON public.${table}
        FOR EACH STATEMENT EXECUTE FUNCTION public.sync_void_positions()`);
    }
    await q.query(SET_TRIGGER_MODES_SQL);
    await q.query(RECORD_GUARD_SQL);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER stores_removed_from_views ON public.stores`);
    await q.query(`DROP FUNCTION public.stores_removed_from_views()`);
    await q.query(`DROP TRIGGER api_clients_view_narrowed ON public.api_clients`);
    await q.query(`DROP FUNCTION public.api_clients_view_narrowed()`);
    await q.query(`DROP FUNCTION public.record_client_removals(text, text, text)`);
    await q.query(`DROP TRIGGER products_record_deleted_row ON public.products`);
    await q.query(`DROP TRIGGER products_record_moved ON public.products`);
    await q.query(`DROP TRIGGER products_record_deleted ON public.products`);
    await q.query(`DROP FUNCTION public.products_record_left()`);
    await q.query(`DROP FUNCTION public.products_record_deleted()`);
    await q.query(`ALTER TABLE public.sync_state DROP COLUMN retained_from_xact`);
    await q.query(`DROP TABLE public.client_removals`);
    await q.query(`DROP TABLE public.sync_removals`);
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';
import { RECORD_GUARD_SQL, SET_TRIGGER_MODES_SQL } from '../sync-state.js';

/**
 * Closes three ways a write that foreign keys do not check (`session_replication_role = replica`, as a
 * logical-replication apply worker runs) changed what a round shows with no row marked and no removal
 * recorded (docs/sync.md#every-write-path):
 *
 * - A VAT rate given another id or tenant while products still show it: those products now read
 *   `vatRate: null`. Like a deleted rate (RemovalsFailSafe), the products of the OLD rate are marked.
 * - A stock level given another store (or tenant) than its product's: the product's stock row now reads
 *   no stock level in its store (`trackStock: false`), and the level left store-scoped views. The
 *   product is marked, as when a stock level is deleted.
 * - A store deleted while its products stay (the cascade does not run there): they stay visible to the
 *   clients whose allow-list names the store (or who see every store), while `client_view()` no longer
 *   lists it. A later narrowing (or widening) of such a client now counts the stores its allow-list
 *   names and, for a client of every store, the stores its tenant's products are in, so the orphans
 *   leaving its view are recorded like any store's rows. A widening that brings such orphans into view
 *   cannot grant them (a grant's foreign key to stores): it voids older positions instead.
 *
 * Elsewhere the foreign keys refuse these writes (NO ACTION on vat_rates, the stock level's key to its
 * product), or cascade them from a product that its own write marks; a foreign key's trigger disabled
 * outside replica role is a catalog change that voids positions (sync-state.ts).
 */
export class UncheckedWritesMarked1764806400000 implements MigrationInterface {
  name = 'UncheckedWritesMarked1764806400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE FUNCTION public.vat_rates_renamed_mark_products() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        -- Elsewhere the foreign key refuses to rename a rate in use (and disabled triggers void positions).
        IF current_setting('session_replication_role') <> 'replica' THEN
          RETURN NULL;
        END IF;
        -- Products of the new id (if any) are brought as those of a changed rate; those of the old one:
        UPDATE public.products SET change_xact = public.current_xact()
         WHERE tenant_id = OLD.tenant_id AND vat_rate_id = OLD.id;
        RETURN NULL;
      END
    $$`);
    await q.query(`CREATE TRIGGER vat_rates_renamed_mark_products AFTER UPDATE OF id, tenant_id ON public.vat_rates
      FOR EACH ROW WHEN ((OLD.id, OLD.tenant_id) IS DISTINCT FROM (NEW.id, NEW.tenant_id))
      EXECUTE FUNCTION public.vat_rates_renamed_mark_products()`);

    await q.query(`CREATE FUNCTION public.stock_levels_moved_mark_product() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        -- Elsewhere the foreign key to the product refuses it, or it cascades from the product's own move.
        IF current_setting('session_replication_role') <> 'replica' THEN
          RETURN NULL;
        END IF;
        UPDATE public.products SET change_xact = public.current_xact() WHERE id = OLD.product_id;
        RETURN NULL;
      END
    $$`);
    await q.query(`CREATE TRIGGER stock_levels_moved_mark_product AFTER UPDATE OF store_id, tenant_id ON public.stock_levels
      FOR EACH ROW WHEN ((OLD.store_id, OLD.tenant_id) IS DISTINCT FROM (NEW.store_id, NEW.tenant_id))
      EXECUTE FUNCTION public.stock_levels_moved_mark_product()`);

    // What a client's rows are in: the stores it may see, the stores its allow-list names (a deleted one's
    // products may be left), and for a client of every store the stores its tenant's products are in.
    await q.query(`CREATE FUNCTION public.client_view_held(tenant text, allowed varchar[]) RETURNS SETOF text
      LANGUAGE sql STABLE AS $$
        SELECT public.client_view(tenant, allowed)
        UNION SELECT unnest(allowed)::text
        UNION SELECT DISTINCT p.store_id FROM public.products p
               WHERE allowed IS NULL AND p.tenant_id = tenant
                 AND NOT EXISTS (SELECT 1 FROM public.stores s WHERE s.id = p.store_id AND s.tenant_id = tenant)
      $$`);
    await q.query(`CREATE OR REPLACE FUNCTION public.api_clients_view_narrowed() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE s text; waited text;
      BEGIN
        IF NEW.allowed_store_ids IS NULL AND NEW.tenant_id = OLD.tenant_id THEN
          RETURN NULL;
        END IF;
        IF NOT EXISTS (SELECT public.client_view_held(OLD.tenant_id, OLD.allowed_store_ids)
                       EXCEPT SELECT public.client_view_held(NEW.tenant_id, NEW.allowed_store_ids)) THEN
          RETURN NULL;
        END IF;
        IF current_setting('transaction_isolation') <> 'read committed' THEN
          -- Its snapshot predates any lock: what it records may miss a product written meanwhile.
          UPDATE public.sync_state SET void_xact = GREATEST(void_xact, public.current_xact());
        ELSE
          waited := current_setting('lock_timeout');
          PERFORM set_config('lock_timeout', '10s', true);
          LOCK TABLE public.products IN SHARE MODE;
          PERFORM set_config('lock_timeout', waited, true);
        END IF;
        FOR s IN SELECT public.client_view_held(OLD.tenant_id, OLD.allowed_store_ids)
                 EXCEPT SELECT public.client_view_held(NEW.tenant_id, NEW.allowed_store_ids) LOOP
          PERFORM public.record_client_removals(NEW.id, OLD.tenant_id, s);
        END LOOP;
        RETURN NULL;
      END
    $$`);
    // Widening to a deleted store whose products were left: no grant can name it (its foreign key to
    // stores), so older positions are void instead (refused, as after a TRUNCATE).
    await q.query(`CREATE OR REPLACE FUNCTION public.api_clients_grant_widened() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM public.grant_stores(NEW.id, NEW.tenant_id, ARRAY(
          SELECT public.client_view(NEW.tenant_id, NEW.allowed_store_ids)
          EXCEPT SELECT public.client_view(OLD.tenant_id, OLD.allowed_store_ids)));
        IF NOT (OLD.allowed_store_ids IS NULL AND NEW.tenant_id = OLD.tenant_id) AND EXISTS (
             SELECT 1 FROM (SELECT public.client_view_held(NEW.tenant_id, NEW.allowed_store_ids)
                            EXCEPT SELECT public.client_view_held(OLD.tenant_id, OLD.allowed_store_ids)) w(store_id)
              WHERE NOT EXISTS (SELECT 1 FROM public.stores s WHERE s.id = w.store_id AND s.tenant_id = NEW.tenant_id)
                AND EXISTS (SELECT 1 FROM public.products p WHERE p.tenant_id = NEW.tenant_id AND p.store_id = w.store_id)) THEN
          UPDATE public.sync_state SET void_xact = GREATEST(void_xact, public.current_xact());
        END IF;
        RETURN NULL;
      END
    $$`);

    await q.query(SET_TRIGGER_MODES_SQL);
    await q.query(RECORD_GUARD_SQL);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE OR REPLACE FUNCTION public.api_clients_grant_widened() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM public.grant_stores(NEW.id, NEW.tenant_id, ARRAY(
          SELECT public.client_view(NEW.tenant_id, NEW.allowed_store_ids)
          EXCEPT SELECT public.client_view(OLD.tenant_id, OLD.allowed_store_ids)));
        RETURN NULL;
      END
    $$`);
    await q.query(`CREATE OR REPLACE FUNCTION public.api_clients_view_narrowed() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE s text; waited text;
      BEGIN
        IF NOT EXISTS (SELECT public.client_view(OLD.tenant_id, OLD.allowed_store_ids)
                       EXCEPT SELECT public.client_view(NEW.tenant_id, NEW.allowed_store_ids)) THEN
          RETURN NULL;
        END IF;
        IF current_setting('transaction_isolation') <> 'read committed' THEN
          UPDATE public.sync_state SET void_xact = GREATEST(void_xact, public.current_xact());
        ELSE
          waited := current_setting('lock_timeout');
          PERFORM set_config('lock_timeout', '10s', true);
          LOCK TABLE public.products IN SHARE MODE;
          PERFORM set_config('lock_timeout', waited, true);
        END IF;
        FOR s IN SELECT public.client_view(OLD.tenant_id, OLD.allowed_store_ids)
                 EXCEPT SELECT public.client_view(NEW.tenant_id, NEW.allowed_store_ids) LOOP
          PERFORM public.record_client_removals(NEW.id, OLD.tenant_id, s);
        END LOOP;
        RETURN NULL;
      END
    $$`);
    await q.query(`DROP FUNCTION public.client_view_held(text, varchar[])`);
    await q.query(`DROP TRIGGER stock_levels_moved_mark_product ON public.stock_levels`);
    await q.query(`DROP FUNCTION public.stock_levels_moved_mark_product()`);
    await q.query(`DROP TRIGGER vat_rates_renamed_mark_products ON public.vat_rates`);
    await q.query(`DROP FUNCTION public.vat_rates_renamed_mark_products()`);
  }
}

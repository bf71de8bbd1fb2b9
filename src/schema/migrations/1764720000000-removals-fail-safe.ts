import type { MigrationInterface, QueryRunner } from 'typeorm';
import { RECORD_GUARD_SQL, SET_TRIGGER_MODES_SQL } from '../sync-state.js';

/**
 * Closes four ways a copy could miss a removal without any position being refused (docs/sync.md#removals):
 *
 * - A product's id changed (`UPDATE products SET id = …`): the old id left every view. It is recorded
 *   like a move (`products_record_moved` now fires on `id` too), so the removals walk lists it.
 * - A client's allow-list narrowed while a product was written into a store leaving its view: the
 *   narrowing recorded the store's products as its statement saw them, and a product committed in
 *   between was recorded nowhere, although a round still saw it in the view. The narrowing now takes
 *   a SHARE lock on products first (it waits for writers under way, and holds new ones off until it
 *   commits; it gives up with an error after 10 s rather than stall every writer queued behind it),
 *   then records what is there. In a REPEATABLE READ or SERIALIZABLE transaction, whose snapshot is
 *   older than any lock it could take, it records what it sees and voids every position up to its
 *   own transaction instead (refused, as after a TRUNCATE): never an error that would stop a writer
 *   or a logical-replication apply worker.
 * - An API client deleted and created again with the same id (SQL, or `db:import --replace`, which
 *   deletes its tenants): its removal records went with the old row, while its old positions still
 *   decoded. `api_clients.created_xact` is the transaction that created the row (0 for clients made
 *   before this migration); a position at or below it is refused (SYNC_GUARD_SQL, REFUSED.clientRecreated).
 * - A VAT rate deleted while products still show it (possible where foreign keys do not fire: under
 *   `session_replication_role = replica`): those products now read `vatRate: null`, so they are marked.
 */
export class RemovalsFailSafe1764720000000 implements MigrationInterface {
  name = 'RemovalsFailSafe1764720000000';

  async up(q: QueryRunner): Promise<void> {
    // Renames are moves: the old id left its store.
    await q.query(`CREATE OR REPLACE FUNCTION public.products_record_left() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE'
           OR (OLD.id, OLD.tenant_id, OLD.store_id) IS DISTINCT FROM (NEW.id, NEW.tenant_id, NEW.store_id) THEN
          INSERT INTO public.sync_removals (tenant_id, store_id, product_id) VALUES (OLD.tenant_id, OLD.store_id, OLD.id);
        END IF;
        RETURN NULL;
      END
    $$`);
    await q.query(`DROP TRIGGER products_record_moved ON public.products`);
    await q.query(`CREATE TRIGGER products_record_moved AFTER UPDATE OF id, store_id, tenant_id ON public.products
      FOR EACH ROW WHEN ((OLD.id, OLD.tenant_id, OLD.store_id) IS DISTINCT FROM (NEW.id, NEW.tenant_id, NEW.store_id))
      EXECUTE FUNCTION public.products_record_left()`);

    // A narrowing sees every product committed before it, and none can be written until it commits.
    await q.query(`CREATE OR REPLACE FUNCTION public.api_clients_view_narrowed() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE s text; waited text;
      BEGIN
        IF NOT EXISTS (SELECT public.client_view(OLD.tenant_id, OLD.allowed_store_ids)
                       EXCEPT SELECT public.client_view(NEW.tenant_id, NEW.allowed_store_ids)) THEN
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
        FOR s IN SELECT public.client_view(OLD.tenant_id, OLD.allowed_store_ids)
                 EXCEPT SELECT public.client_view(NEW.tenant_id, NEW.allowed_store_ids) LOOP
          PERFORM public.record_client_removals(NEW.id, OLD.tenant_id, s);
        END LOOP;
        RETURN NULL;
      END
    $$`);

    // A client made again under an old id does not inherit the positions of the one deleted.
    await q.query(`ALTER TABLE public.api_clients ADD COLUMN created_xact bigint NOT NULL DEFAULT 0`);
    await q.query(`ALTER TABLE public.api_clients ALTER COLUMN created_xact SET DEFAULT public.current_xact()`);
    await q.query(`CREATE FUNCTION public.api_clients_created_xact() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        -- The creating transaction's, whoever inserts (a COPY or an INSERT … SELECT of a kept row too).
        NEW.created_xact := public.current_xact();
        RETURN NEW;
      END
    $$`);
    await q.query(`CREATE TRIGGER api_clients_created_xact BEFORE INSERT ON public.api_clients
      FOR EACH ROW EXECUTE FUNCTION public.api_clients_created_xact()`);
    await q.query(`CREATE FUNCTION public.api_clients_keep_created_xact() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        -- A row given another id is that client made anew (the id's earlier client may have been deleted).
        IF NEW.id IS DISTINCT FROM OLD.id THEN
          NEW.created_xact := public.current_xact();
        ELSE
          NEW.created_xact := OLD.created_xact;
        END IF;
        RETURN NEW;
      END
    $$`);
    await q.query(`CREATE TRIGGER api_clients_keep_created_xact BEFORE UPDATE ON public.api_clients
      FOR EACH ROW EXECUTE FUNCTION public.api_clients_keep_created_xact()`);

    // Products that showed a deleted VAT rate now read vatRate null.
    await q.query(`CREATE FUNCTION public.vat_rates_deleted_mark_products() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        -- Elsewhere the foreign key refuses to delete a rate in use (and disabled triggers void positions).
        IF current_setting('session_replication_role') <> 'replica' THEN
          RETURN NULL;
        END IF;
        -- A marker set to this transaction marks the row (mark_change keeps it; an update that changes
        -- nothing would not).
        UPDATE public.products SET change_xact = public.current_xact()
         WHERE tenant_id = OLD.tenant_id AND vat_rate_id = OLD.id;
        RETURN NULL;
      END
    $$`);
    await q.query(`CREATE TRIGGER vat_rates_deleted_mark_products AFTER DELETE ON public.vat_rates
      FOR EACH ROW EXECUTE FUNCTION public.vat_rates_deleted_mark_products()`);

    await q.query(SET_TRIGGER_MODES_SQL);
    await q.query(RECORD_GUARD_SQL);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER vat_rates_deleted_mark_products ON public.vat_rates`);
    await q.query(`DROP FUNCTION public.vat_rates_deleted_mark_products()`);
    await q.query(`DROP TRIGGER api_clients_keep_created_xact ON public.api_clients`);
    await q.query(`DROP FUNCTION public.api_clients_keep_created_xact()`);
    await q.query(`DROP TRIGGER api_clients_created_xact ON public.api_clients`);
    await q.query(`DROP FUNCTION public.api_clients_created_xact()`);
    await q.query(`ALTER TABLE public.api_clients DROP COLUMN created_xact`);
    await q.query(`CREATE OR REPLACE FUNCTION public.api_clients_view_narrowed() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE s text;
      BEGIN
        FOR s IN SELECT public.client_view(OLD.tenant_id, OLD.allowed_store_ids)
                 EXCEPT SELECT public.client_view(NEW.tenant_id, NEW.allowed_store_ids) LOOP
          PERFORM public.record_client_removals(NEW.id, OLD.tenant_id, s);
        END LOOP;
        RETURN NULL;
      END
    $$`);
    await q.query(`DROP TRIGGER products_record_moved ON public.products`);
    await q.query(`CREATE TRIGGER products_record_moved AFTER UPDATE OF store_id, tenant_id ON public.products
      FOR EACH ROW WHEN ((OLD.tenant_id, OLD.store_id) IS DISTINCT FROM (NEW.tenant_id, NEW.store_id))
      EXECUTE FUNCTION public.products_record_left()`);
    await q.query(`ALTER TABLE public.products ENABLE ALWAYS TRIGGER products_record_moved`);
    await q.query(`CREATE OR REPLACE FUNCTION public.products_record_left() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' OR (OLD.tenant_id, OLD.store_id) IS DISTINCT FROM (NEW.tenant_id, NEW.store_id) THEN
          INSERT INTO public.sync_removals (tenant_id, store_id, product_id) VALUES (OLD.tenant_id, OLD.store_id, OLD.id);
        END IF;
        RETURN NULL;
      END
    $$`);
  }
}

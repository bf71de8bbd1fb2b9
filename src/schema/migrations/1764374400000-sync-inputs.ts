import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every input of a synced row marks its change (docs/sync.md#how-the-service-guarantees-it).
 *
 * - A VAT rate carries the transaction that last changed it, like products and stock levels do: an
 *   incremental round brings every product whose VAT rate changed since its position, found through
 *   products (tenant_id, vat_rate_id, id). Editing a rate used by a million products writes one row.
 * - What an API client may see is recorded too: `api_client_store_grants` holds, for each store that
 *   came into a client's view (its allow-list widened, it was given every store, or a store it may
 *   see was created), the transaction that brought it. An incremental round brings every row of a
 *   store granted since its position. A narrowing writes nothing: the periodic full walk removes rows.
 *
 * Rows that exist when this runs are marked with this migration's transaction, and so is every
 * store every client sees now: the first round from a position handed out before it brings every
 * row once, so that a change earlier versions could not mark still reaches the copy.
 */
export class SyncInputs1764374400000 implements MigrationInterface {
  name = 'SyncInputs1764374400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE vat_rates ADD COLUMN change_xact bigint NOT NULL DEFAULT current_xact()`);
    await q.query(`CREATE TRIGGER vat_rates_mark_change BEFORE UPDATE ON vat_rates
      FOR EACH ROW EXECUTE FUNCTION mark_change()`);
    await q.query(`CREATE INDEX vat_rates_tenant_change_idx ON vat_rates (tenant_id, change_xact)`);
    await q.query(`CREATE INDEX products_tenant_vat_rate_idx ON products (tenant_id, vat_rate_id, id)`);

    await q.query(`CREATE TABLE api_client_store_grants (
      client_id opaque_id NOT NULL REFERENCES api_clients(id) ON DELETE CASCADE,
      tenant_id opaque_id NOT NULL,
      store_id opaque_id NOT NULL,
      granted_xact bigint NOT NULL DEFAULT current_xact(),
      PRIMARY KEY (client_id, store_id),
      FOREIGN KEY (store_id, tenant_id) REFERENCES stores(id, tenant_id) ON DELETE CASCADE
    )`);
    // The stores a client may see: its allow-list (null: every store of its tenant), existing stores only.
    await q.query(`CREATE FUNCTION client_view(tenant text, allowed varchar[]) RETURNS SETOF text
      LANGUAGE sql STABLE AS $$
        SELECT s.id FROM stores s WHERE s.tenant_id = tenant AND (allowed IS NULL OR s.id = ANY(allowed))
      $$`);
    await q.query(`CREATE FUNCTION grant_stores(client text, tenant text, stores text[]) RETURNS void
      LANGUAGE sql AS $$
        INSERT INTO api_client_store_grants (client_id, tenant_id, store_id)
        SELECT client, tenant, unnest(stores)
        ON CONFLICT (client_id, store_id) DO UPDATE SET granted_xact = current_xact()
      $$`);
    await q.query(`CREATE FUNCTION api_clients_grant_widened() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM grant_stores(NEW.id, NEW.tenant_id, ARRAY(
          SELECT client_view(NEW.tenant_id, NEW.allowed_store_ids)
          EXCEPT SELECT client_view(OLD.tenant_id, OLD.allowed_store_ids)));
        RETURN NULL;
      END
    $$`);
    await q.query(`CREATE TRIGGER api_clients_grant_widened AFTER UPDATE OF allowed_store_ids, tenant_id ON api_clients
      FOR EACH ROW WHEN (OLD.allowed_store_ids IS DISTINCT FROM NEW.allowed_store_ids OR OLD.tenant_id <> NEW.tenant_id)
      EXECUTE FUNCTION api_clients_grant_widened()`);
    await q.query(`CREATE FUNCTION stores_grant_created() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE c record;
      BEGIN
        FOR c IN SELECT id FROM api_clients
                  WHERE tenant_id = NEW.tenant_id AND (allowed_store_ids IS NULL OR NEW.id = ANY(allowed_store_ids)) LOOP
          PERFORM grant_stores(c.id, NEW.tenant_id, ARRAY[NEW.id::text]);
        END LOOP;
        RETURN NULL;
      END
    $$`);
    await q.query(`CREATE TRIGGER stores_grant_created AFTER INSERT ON stores
      FOR EACH ROW EXECUTE FUNCTION stores_grant_created()`);
    // What every client sees now, as of this transaction (see above).
    await q.query(`INSERT INTO api_client_store_grants (client_id, tenant_id, store_id)
      SELECT c.id, c.tenant_id, v FROM api_clients c, client_view(c.tenant_id, c.allowed_store_ids) v`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER stores_grant_created ON stores`);
    await q.query(`DROP FUNCTION stores_grant_created()`);
    await q.query(`DROP TRIGGER api_clients_grant_widened ON api_clients`);
    await q.query(`DROP FUNCTION api_clients_grant_widened()`);
    await q.query(`DROP FUNCTION grant_stores(text, text, text[])`);
    await q.query(`DROP FUNCTION client_view(text, varchar[])`);
    await q.query(`DROP TABLE api_client_store_grants`);
    await q.query(`DROP INDEX products_tenant_vat_rate_idx`);
    await q.query(`DROP INDEX vat_rates_tenant_change_idx`);
    await q.query(`DROP TRIGGER vat_rates_mark_change ON vat_rates`);
    await q.query(`ALTER TABLE vat_rates DROP COLUMN change_xact`);
  }
}

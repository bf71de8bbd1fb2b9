import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sync positions (changedSince): each product and stock level carries the id of the transaction that
 * last changed it (`change_xact`: its xid8, the 64-bit transaction id that never wraps, as a bigint).
 * A sync walk returns the rows changed by transactions at or after the client's position and hands
 * out as the next position the oldest
 * transaction its snapshot could not see yet (pg_snapshot_xmin): a change committed later, however
 * late, and whatever timestamps it writes, carries a transaction id at or after that position.
 *
 * New rows take the inserting transaction's id from the column default; updates that change anything
 * take the updating one's from a trigger. A stock level that is deleted changes its product's stock
 * row (it becomes untracked), so it marks the product. Indexes serve the incremental counts (by
 * change_xact) and the id-ordered walks (change_xact included in the covering indexes).
 */
export class ChangeMarkers1764201600000 implements MigrationInterface {
  name = 'ChangeMarkers1764201600000';

  async up(q: QueryRunner): Promise<void> {
    // xid8 as a bigint (an epoch above 2^31 is hundreds of years away): TypeORM has no xid8 type.
    await q.query(`CREATE FUNCTION current_xact() RETURNS bigint LANGUAGE sql VOLATILE AS $$
      SELECT pg_current_xact_id()::text::bigint
    $$`);
    for (const table of ['products', 'stock_levels']) {
      await q.query(`ALTER TABLE ${table} ADD COLUMN change_xact bigint NOT NULL DEFAULT current_xact()`);
    }
    // An update that changes nothing leaves the mark (a re-import of the same data is not a change).
    // Compared as jsonb: a BEFORE trigger cannot compare a generated column (search_text).
    await q.query(`CREATE FUNCTION mark_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF to_jsonb(NEW) - 'search_text' - 'change_xact' IS DISTINCT FROM to_jsonb(OLD) - 'search_text' - 'change_xact' THEN
          NEW.change_xact := current_xact();
        END IF;
        RETURN NEW;
      END
    $$`);
    for (const table of ['products', 'stock_levels']) {
      await q.query(`CREATE TRIGGER ${table}_mark_change BEFORE UPDATE ON ${table}
        FOR EACH ROW EXECUTE FUNCTION mark_change()`);
    }
    await q.query(`CREATE FUNCTION stock_levels_deleted_mark_product() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE products SET change_xact = current_xact() WHERE id = OLD.product_id;
        RETURN NULL;
      END
    $$`);
    await q.query(`CREATE TRIGGER stock_levels_deleted_mark_product AFTER DELETE ON stock_levels
      FOR EACH ROW EXECUTE FUNCTION stock_levels_deleted_mark_product()`);

    await q.query(`CREATE INDEX products_tenant_change_idx ON products (tenant_id, change_xact)`);
    await q.query(`CREATE INDEX stock_levels_tenant_change_idx ON stock_levels (tenant_id, change_xact)`);
    await q.query(`DROP INDEX products_tenant_id_idx`);
    await q.query(
      `CREATE INDEX products_tenant_id_idx ON products (tenant_id, id) INCLUDE (store_id, is_active, change_xact)`,
    );
    await q.query(`CREATE INDEX stock_levels_tenant_product_idx ON stock_levels (tenant_id, product_id)
      INCLUDE (store_id, change_xact)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX stock_levels_tenant_product_idx`);
    await q.query(`DROP INDEX products_tenant_id_idx`);
    await q.query(`CREATE INDEX products_tenant_id_idx ON products (tenant_id, id) INCLUDE (store_id, is_active)`);
    await q.query(`DROP INDEX stock_levels_tenant_change_idx`);
    await q.query(`DROP INDEX products_tenant_change_idx`);
    await q.query(`DROP TRIGGER stock_levels_deleted_mark_product ON stock_levels`);
    await q.query(`DROP FUNCTION stock_levels_deleted_mark_product()`);
    for (const table of ['products', 'stock_levels']) {
      await q.query(`DROP TRIGGER ${table}_mark_change ON ${table}`);
      await q.query(`ALTER TABLE ${table} DROP COLUMN change_xact`);
    }
    await q.query(`DROP FUNCTION mark_change()`);
    await q.query(`DROP FUNCTION current_xact()`);
  }
}

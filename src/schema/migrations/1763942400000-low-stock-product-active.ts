import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `lowStockOnly=true` with the default `activeOnly=true` is answered from the low-stock partial index
 * alone: each stock level carries its product's `is_active` (kept by triggers, like `store_id` by its
 * cascading foreign key), so counting and paging the low-stock rows never joins a million products.
 */
export class LowStockProductActive1763942400000 implements MigrationInterface {
  name = 'LowStockProductActive1763942400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE stock_levels ADD COLUMN product_is_active boolean`);
    await q.query(
      `UPDATE stock_levels s SET product_is_active = p.is_active FROM products p WHERE p.id = s.product_id`,
    );
    await q.query(`ALTER TABLE stock_levels ALTER COLUMN product_is_active SET NOT NULL`);
    await q.query(`CREATE FUNCTION stock_levels_copy_product_active() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        SELECT p.is_active INTO NEW.product_is_active FROM products p WHERE p.id = NEW.product_id;
        RETURN NEW;
      END
    $$`);
    await q.query(`CREATE TRIGGER stock_levels_copy_product_active BEFORE INSERT OR UPDATE ON stock_levels
      FOR EACH ROW EXECUTE FUNCTION stock_levels_copy_product_active()`);
    await q.query(`CREATE FUNCTION products_share_active_with_stock() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE stock_levels SET product_is_active = NEW.is_active WHERE product_id = NEW.id;
        RETURN NULL;
      END
    $$`);
    await q.query(`CREATE TRIGGER products_share_active_with_stock AFTER UPDATE OF is_active ON products
      FOR EACH ROW WHEN (OLD.is_active IS DISTINCT FROM NEW.is_active) EXECUTE FUNCTION products_share_active_with_stock()`);
    await q.query(`DROP INDEX stock_levels_low_stock_idx`);
    await q.query(`CREATE INDEX stock_levels_low_stock_idx ON stock_levels (tenant_id, product_id) INCLUDE (store_id, product_is_active)
      WHERE track_stock AND quantity > 0 AND quantity <= reorder_level`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX stock_levels_low_stock_idx`);
    await q.query(`CREATE INDEX stock_levels_low_stock_idx ON stock_levels (tenant_id, product_id)
      WHERE track_stock AND quantity > 0 AND quantity <= reorder_level`);
    await q.query(`DROP TRIGGER products_share_active_with_stock ON products`);
    await q.query(`DROP FUNCTION products_share_active_with_stock()`);
    await q.query(`DROP TRIGGER stock_levels_copy_product_active ON stock_levels`);
    await q.query(`DROP FUNCTION stock_levels_copy_product_active()`);
    await q.query(`ALTER TABLE stock_levels DROP COLUMN product_is_active`);
  }
}

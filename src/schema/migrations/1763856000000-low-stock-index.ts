import type { MigrationInterface, QueryRunner } from 'typeorm';

/** `lowStockOnly=true` reads only the low-stock rows (a small part of the stock) through this partial index. */
export class LowStockIndex1763856000000 implements MigrationInterface {
  name = 'LowStockIndex1763856000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX stock_levels_low_stock_idx ON stock_levels (tenant_id, product_id)
      WHERE track_stock AND quantity > 0 AND quantity <= reorder_level`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX stock_levels_low_stock_idx`);
  }
}

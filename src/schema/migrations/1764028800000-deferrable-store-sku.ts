import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A sku stays unique per store, checked at commit when the importer defers constraints, so that one
 * data set may swap or pass on skus between existing products of a store.
 */
export class DeferrableStoreSku1764028800000 implements MigrationInterface {
  name = 'DeferrableStoreSku1764028800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE products DROP CONSTRAINT products_store_id_sku_key,
      ADD CONSTRAINT products_store_id_sku_key UNIQUE (store_id, sku) DEFERRABLE INITIALLY IMMEDIATE`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE products DROP CONSTRAINT products_store_id_sku_key,
      ADD CONSTRAINT products_store_id_sku_key UNIQUE (store_id, sku)`);
  }
}

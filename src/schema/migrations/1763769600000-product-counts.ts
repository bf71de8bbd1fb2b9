import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Exact totals without counting a million rows: product_counts holds, per tenant, store and activity,
 * how many products there are, maintained by statement-level triggers (one aggregate per statement,
 * so bulk loads stay fast). The unfiltered and store-filtered product and stock lists read their
 * `total` from here. Covering indexes let the id page of a list be read by an index-only scan.
 */
export class ProductCounts1763769600000 implements MigrationInterface {
  name = 'ProductCounts1763769600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE product_counts (
      tenant_id opaque_id NOT NULL,
      store_id opaque_id NOT NULL,
      is_active boolean NOT NULL,
      n bigint NOT NULL,
      PRIMARY KEY (tenant_id, store_id, is_active)
    )`);
    await q.query(`CREATE FUNCTION product_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP IN ('DELETE', 'UPDATE') THEN
          INSERT INTO product_counts AS c (tenant_id, store_id, is_active, n)
            SELECT tenant_id, store_id, is_active, -count(*) FROM old_rows GROUP BY 1, 2, 3
            ON CONFLICT (tenant_id, store_id, is_active) DO UPDATE SET n = c.n + EXCLUDED.n;
        END IF;
        IF TG_OP IN ('INSERT', 'UPDATE') THEN
          INSERT INTO product_counts AS c (tenant_id, store_id, is_active, n)
            SELECT tenant_id, store_id, is_active, count(*) FROM new_rows GROUP BY 1, 2, 3
            ON CONFLICT (tenant_id, store_id, is_active) DO UPDATE SET n = c.n + EXCLUDED.n;
        END IF;
        RETURN NULL;
      END
    $$`);
    await q.query(`CREATE TRIGGER product_counts_insert AFTER INSERT ON products
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION product_counts_apply()`);
    await q.query(`CREATE TRIGGER product_counts_update AFTER UPDATE ON products
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION product_counts_apply()`);
    await q.query(`CREATE TRIGGER product_counts_delete AFTER DELETE ON products
      REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION product_counts_apply()`);
    await q.query(`CREATE FUNCTION product_counts_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM product_counts;
        RETURN NULL;
      END
    $$`);
    await q.query(
      `CREATE TRIGGER product_counts_truncate AFTER TRUNCATE ON products FOR EACH STATEMENT EXECUTE FUNCTION product_counts_truncate()`,
    );
    await q.query(`INSERT INTO product_counts (tenant_id, store_id, is_active, n)
      SELECT tenant_id, store_id, is_active, count(*) FROM products GROUP BY 1, 2, 3`);

    await q.query(`DROP INDEX products_tenant_id_idx`);
    await q.query(`CREATE INDEX products_tenant_id_idx ON products (tenant_id, id) INCLUDE (store_id, is_active)`);
    await q.query(`DROP INDEX products_tenant_store_id_idx`);
    await q.query(
      `CREATE INDEX products_tenant_store_id_idx ON products (tenant_id, store_id, id) INCLUDE (is_active)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER product_counts_insert ON products`);
    await q.query(`DROP TRIGGER product_counts_update ON products`);
    await q.query(`DROP TRIGGER product_counts_delete ON products`);
    await q.query(`DROP TRIGGER product_counts_truncate ON products`);
    await q.query(`DROP FUNCTION product_counts_apply()`);
    await q.query(`DROP FUNCTION product_counts_truncate()`);
    await q.query(`DROP TABLE product_counts`);
    await q.query(`DROP INDEX products_tenant_id_idx`);
    await q.query(`CREATE INDEX products_tenant_id_idx ON products (tenant_id, id)`);
    await q.query(`DROP INDEX products_tenant_store_id_idx`);
    await q.query(`CREATE INDEX products_tenant_store_id_idx ON products (tenant_id, store_id, id)`);
  }
}

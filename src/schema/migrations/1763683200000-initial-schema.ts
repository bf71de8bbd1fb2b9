import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The whole schema of docs/dataset-format.md. Ids are `varchar(128) COLLATE "C"` so that primary keys are in byte
 * order, the order the contract lists rows in. Composite foreign keys on (id, tenant_id) make it
 * impossible for a row to point at another tenant's store, category, VAT rate or supplier.
 */
export class InitialSchema1763683200000 implements MigrationInterface {
  name = 'InitialSchema1763683200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    await q.query(`CREATE DOMAIN opaque_id AS varchar(128) COLLATE "C" CHECK (VALUE ~ '^[A-Za-z0-9_.:-]{1,128}$')`);

    await q.query(`CREATE TABLE tenants (
      id opaque_id PRIMARY KEY,
      name text NOT NULL,
      currency char(3) NOT NULL CHECK (currency ~ '^[A-Z]{3}$')
    )`);

    await q.query(`CREATE TABLE stores (
      id opaque_id PRIMARY KEY,
      tenant_id opaque_id NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
      name text NOT NULL,
      UNIQUE (id, tenant_id)
    )`);
    await q.query(`CREATE INDEX stores_tenant_idx ON stores (tenant_id, id)`);

    await q.query(`CREATE TABLE vat_rates (
      id opaque_id PRIMARY KEY,
      tenant_id opaque_id NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
      code text NOT NULL,
      name text NOT NULL,
      percentage numeric(7,2) NOT NULL,
      UNIQUE (id, tenant_id)
    )`);

    await q.query(`CREATE TABLE suppliers (
      id opaque_id PRIMARY KEY,
      tenant_id opaque_id NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
      name text NOT NULL,
      contact_email text,
      UNIQUE (id, tenant_id)
    )`);

    await q.query(`CREATE TABLE staff (
      id opaque_id PRIMARY KEY,
      tenant_id opaque_id NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
      name text NOT NULL,
      UNIQUE (id, tenant_id)
    )`);

    await q.query(`CREATE TABLE categories (
      id opaque_id PRIMARY KEY,
      tenant_id opaque_id NOT NULL,
      store_id opaque_id NOT NULL,
      parent_category_id opaque_id,
      name text NOT NULL,
      code text,
      description text,
      sort_order integer NOT NULL,
      is_active boolean NOT NULL,
      is_archived boolean NOT NULL,
      updated_at timestamptz(3) NOT NULL,
      UNIQUE (id, tenant_id),
      UNIQUE (id, store_id),
      FOREIGN KEY (store_id, tenant_id) REFERENCES stores(id, tenant_id) ON DELETE CASCADE,
      FOREIGN KEY (parent_category_id, store_id) REFERENCES categories(id, store_id) DEFERRABLE INITIALLY DEFERRED
    )`);
    await q.query(`CREATE INDEX categories_tenant_store_idx ON categories (tenant_id, store_id)`);
    await q.query(`CREATE INDEX categories_parent_idx ON categories (tenant_id, parent_category_id)`);

    await q.query(`CREATE TABLE products (
      id opaque_id PRIMARY KEY,
      tenant_id opaque_id NOT NULL,
      store_id opaque_id NOT NULL,
      category_id opaque_id,
      name text NOT NULL,
      sku text NOT NULL,
      barcode text,
      brand text,
      size text,
      unit_type text NOT NULL CHECK (unit_type IN ('item','kg','g','litre','ml')),
      selling_price_gross numeric(14,2) NOT NULL,
      selling_price_net numeric(14,2) NOT NULL,
      tax_category text NOT NULL CHECK (tax_category IN ('STANDARD','ZERO_RATED','REDUCED','EXEMPT','OUT_OF_SCOPE','UNCLASSIFIED')),
      vat_rate_id opaque_id,
      is_active boolean NOT NULL,
      variable_price boolean NOT NULL,
      age_restricted boolean NOT NULL,
      alcohol_restricted boolean NOT NULL,
      tobacco_restricted boolean NOT NULL,
      vape_restricted boolean NOT NULL,
      updated_at timestamptz(3) NOT NULL,
      cost_price numeric(14,4),
      pack_cost numeric(14,4),
      unit_cost numeric(14,4),
      margin_percent numeric(9,2),
      supplier_id opaque_id,
      supplier_sku text,
      created_by_staff_id opaque_id,
      updated_by_staff_id opaque_id,
      search_text text GENERATED ALWAYS AS (
        lower(name || ' ' || sku || ' ' || coalesce(barcode, '') || ' ' || coalesce(brand, ''))
      ) STORED,
      UNIQUE (store_id, sku),
      UNIQUE (id, tenant_id, store_id),
      FOREIGN KEY (store_id, tenant_id) REFERENCES stores(id, tenant_id) ON DELETE CASCADE,
      FOREIGN KEY (category_id, tenant_id) REFERENCES categories(id, tenant_id),
      FOREIGN KEY (vat_rate_id, tenant_id) REFERENCES vat_rates(id, tenant_id),
      FOREIGN KEY (supplier_id, tenant_id) REFERENCES suppliers(id, tenant_id),
      FOREIGN KEY (created_by_staff_id, tenant_id) REFERENCES staff(id, tenant_id),
      FOREIGN KEY (updated_by_staff_id, tenant_id) REFERENCES staff(id, tenant_id)
    )`);
    // Every filter and the id ordering of the product and stock routes, within a tenant.
    await q.query(`CREATE INDEX products_tenant_id_idx ON products (tenant_id, id)`);
    await q.query(`CREATE INDEX products_tenant_store_id_idx ON products (tenant_id, store_id, id)`);
    await q.query(`CREATE INDEX products_tenant_sku_idx ON products (tenant_id, sku)`);
    await q.query(`CREATE INDEX products_tenant_barcode_idx ON products (tenant_id, barcode)`);
    await q.query(`CREATE INDEX products_tenant_category_idx ON products (tenant_id, category_id, id)`);
    await q.query(`CREATE INDEX products_tenant_updated_idx ON products (tenant_id, updated_at, id)`);
    await q.query(`CREATE INDEX products_search_trgm_idx ON products USING gin (search_text gin_trgm_ops)`);

    await q.query(`CREATE TABLE stock_levels (
      product_id opaque_id PRIMARY KEY,
      tenant_id opaque_id NOT NULL,
      store_id opaque_id NOT NULL,
      track_stock boolean NOT NULL,
      quantity numeric(14,3) NOT NULL,
      reorder_level numeric(14,3) NOT NULL,
      low_stock_threshold numeric(14,3) NOT NULL,
      updated_at timestamptz(3) NOT NULL,
      FOREIGN KEY (product_id, tenant_id, store_id) REFERENCES products(id, tenant_id, store_id)
        ON DELETE CASCADE ON UPDATE CASCADE
    )`);
    await q.query(`CREATE INDEX stock_levels_tenant_updated_idx ON stock_levels (tenant_id, updated_at)`);
    // lowStockThreshold is informational and always equals reorderLevel, whoever writes the row.
    await q.query(`CREATE FUNCTION stock_levels_mirror_threshold() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.low_stock_threshold := NEW.reorder_level;
        RETURN NEW;
      END
    $$`);
    await q.query(`CREATE TRIGGER stock_levels_mirror_threshold BEFORE INSERT OR UPDATE ON stock_levels
      FOR EACH ROW EXECUTE FUNCTION stock_levels_mirror_threshold()`);

    await q.query(`CREATE TABLE stock_cost_layers (
      id bigserial PRIMARY KEY,
      product_id opaque_id NOT NULL REFERENCES stock_levels(product_id) ON DELETE CASCADE,
      quantity numeric(14,3) NOT NULL,
      unit_cost numeric(14,4) NOT NULL,
      received_at timestamptz(3) NOT NULL
    )`);
    await q.query(`CREATE INDEX stock_cost_layers_product_idx ON stock_cost_layers (product_id)`);

    await q.query(`CREATE TABLE stock_movements (
      id opaque_id PRIMARY KEY,
      tenant_id opaque_id NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
      product_id opaque_id NOT NULL REFERENCES products(id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('SALE','RECEIPT','ADJUSTMENT','TRANSFER','WASTE')),
      quantity_delta numeric(14,3) NOT NULL,
      reason text,
      staff_id opaque_id,
      occurred_at timestamptz(3) NOT NULL,
      FOREIGN KEY (staff_id, tenant_id) REFERENCES staff(id, tenant_id)
    )`);
    await q.query(`CREATE INDEX stock_movements_product_idx ON stock_movements (product_id, occurred_at)`);

    await q.query(`CREATE TABLE promotions (
      id opaque_id PRIMARY KEY,
      tenant_id opaque_id NOT NULL,
      store_id opaque_id NOT NULL,
      name text NOT NULL,
      type text NOT NULL CHECK (type ~ '^[A-Z_]+$'),
      status text NOT NULL CHECK (status IN ('DRAFT','ACTIVE','PAUSED','ARCHIVED')),
      starts_at timestamptz(3),
      ends_at timestamptz(3),
      is_system_preset boolean NOT NULL,
      conditions jsonb NOT NULL,
      actions jsonb NOT NULL,
      builder_config jsonb,
      created_by_staff_id opaque_id,
      updated_at timestamptz(3) NOT NULL,
      FOREIGN KEY (store_id, tenant_id) REFERENCES stores(id, tenant_id) ON DELETE CASCADE,
      FOREIGN KEY (created_by_staff_id, tenant_id) REFERENCES staff(id, tenant_id)
    )`);
    await q.query(`CREATE INDEX promotions_tenant_store_idx ON promotions (tenant_id, store_id, id)`);
    await q.query(`CREATE INDEX promotions_tenant_type_idx ON promotions (tenant_id, type)`);

    await q.query(`CREATE TABLE api_clients (
      id opaque_id PRIMARY KEY,
      tenant_id opaque_id NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
      name text NOT NULL,
      status text NOT NULL CHECK (status IN ('ACTIVE','DISABLED','REVOKED')),
      scopes text[] NOT NULL,
      allowed_store_ids varchar(128)[] COLLATE "C",
      rate_limit_per_minute integer CHECK (rate_limit_per_minute > 0),
      created_at timestamptz(3) NOT NULL DEFAULT now(),
      updated_at timestamptz(3) NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE INDEX api_clients_tenant_idx ON api_clients (tenant_id)`);

    await q.query(`CREATE TABLE api_keys (
      id opaque_id PRIMARY KEY,
      client_id opaque_id NOT NULL REFERENCES api_clients(id) ON DELETE CASCADE,
      key_digest char(64) NOT NULL UNIQUE,
      key_hint text NOT NULL,
      expires_at timestamptz(3),
      revoked_at timestamptz(3),
      created_at timestamptz(3) NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE INDEX api_keys_client_idx ON api_keys (client_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'api_keys',
      'api_clients',
      'promotions',
      'stock_movements',
      'stock_cost_layers',
      'stock_levels',
      'products',
      'categories',
      'staff',
      'suppliers',
      'vat_rates',
      'stores',
      'tenants',
    ]) {
      await q.query(`DROP TABLE IF EXISTS ${table} CASCADE`);
    }
    await q.query(`DROP FUNCTION IF EXISTS stock_levels_mirror_threshold()`);
    await q.query(`DROP DOMAIN IF EXISTS opaque_id`);
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Stored rows (src/lists/stored-row.ts): the parts of the product and stock rows' JSON that read one
 * table are generated columns of that table, written by PostgreSQL whenever a row is written, on every
 * write path (a generated column is not a trigger: replica role, disabled triggers, COPY, a restore and
 * logical replication's apply compute it too). A read concatenates them instead of writing each value.
 *
 * `to_json` and `to_char` are STABLE, which a generation expression may not call: two IMMUTABLE
 * wrappers (STORED_FORM_FUNCTIONS) write text and the contract's UTC millisecond timestamp, whose
 * output depends on no setting. The columns' names carry the rows' version (`_v1_`): a later change of
 * a row adds columns of a new version beside these, which older pods still read during a rollout.
 *
 * Adding the columns rewrites products, stock_levels and vat_rates under an ACCESS EXCLUSIVE lock,
 * without the migrations' statement timeout (docs/operations.md#upgrades). mark_change compares rows
 * without the generated columns (a BEFORE trigger sees them as NULL), as it did for search_text.
 *
 * A migration is a snapshot: the SQL is written out here; test/stored-rows.e2e-spec.ts fails when a
 * column's expression differs from what the row declarations derive now, and the service refuses to
 * read stored rows that are not (src/row-writers/row-writers-state.ts).
 */
export class StoredRows1764979200000 implements MigrationInterface {
  name = 'StoredRows1764979200000';

  async up(q: QueryRunner): Promise<void> {
    // Every table first, in one order: a reader of stock_levels waiting for products cannot deadlock
    // with the rewrites, and the tables' readers wait once (docs/operations.md#upgrades).
    await q.query(`SET LOCAL statement_timeout = 0`);
    await q.query(`LOCK TABLE public.products, public.vat_rates, public.stock_levels IN ACCESS EXCLUSIVE MODE`);
    await q.query(`CREATE FUNCTION public.row_json_text(value text) RETURNS text
      LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
      AS $$BEGIN RETURN pg_catalog.to_json(value)::pg_catalog.text; END$$`);
    await q.query(`CREATE FUNCTION public.row_json_instant(value timestamptz) RETURNS text
      LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
      AS $$BEGIN RETURN pg_catalog.to_char(value AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'); END$$`);
    await q.query(`ALTER TABLE public.products
      ADD COLUMN product_row_v1_1 text GENERATED ALWAYS AS (
        COALESCE('{"id":"' || (id) || '"', '{"id":null') ||
        COALESCE(',"storeId":"' || (store_id) || '"', ',"storeId":null') ||
        COALESCE(',"categoryId":"' || (category_id) || '"', ',"categoryId":null') ||
        ',"name":' || COALESCE(public.row_json_text(name), 'null') ||
        ',"sku":' || COALESCE(public.row_json_text(sku), 'null') ||
        ',"barcode":' || COALESCE(public.row_json_text(barcode), 'null') ||
        ',"brand":' || COALESCE(public.row_json_text(brand), 'null') ||
        ',"size":' || COALESCE(public.row_json_text(size), 'null') ||
        CASE (unit_type)
          WHEN 'item' THEN ',"unitType":"item"'
          WHEN 'kg' THEN ',"unitType":"kg"'
          WHEN 'g' THEN ',"unitType":"g"'
          WHEN 'litre' THEN ',"unitType":"litre"'
          WHEN 'ml' THEN ',"unitType":"ml"'
          ELSE ',"unitType":' || COALESCE(public.row_json_text(unit_type), 'null') END ||
        COALESCE(',"sellingPriceGross":"' || (selling_price_gross)::numeric::text || '"', ',"sellingPriceGross":null') ||
        COALESCE(',"sellingPriceNet":"' || (selling_price_net)::numeric::text || '"', ',"sellingPriceNet":null') ||
        CASE (tax_category)
          WHEN 'STANDARD' THEN ',"taxCategory":"STANDARD"'
          WHEN 'ZERO_RATED' THEN ',"taxCategory":"ZERO_RATED"'
          WHEN 'REDUCED' THEN ',"taxCategory":"REDUCED"'
          WHEN 'EXEMPT' THEN ',"taxCategory":"EXEMPT"'
          WHEN 'OUT_OF_SCOPE' THEN ',"taxCategory":"OUT_OF_SCOPE"'
          WHEN 'UNCLASSIFIED' THEN ',"taxCategory":"UNCLASSIFIED"'
          ELSE ',"taxCategory":' || COALESCE(public.row_json_text(tax_category), 'null') END
      ) STORED,
      ADD COLUMN product_row_v1_3 text GENERATED ALWAYS AS (
        CASE (is_active) WHEN true THEN ',"isActive":true' WHEN false THEN ',"isActive":false' ELSE ',"isActive":null' END ||
        CASE (variable_price)
          WHEN true THEN ',"variablePrice":true'
          WHEN false THEN ',"variablePrice":false'
          ELSE ',"variablePrice":null' END ||
        CASE (age_restricted)
          WHEN true THEN ',"ageRestricted":true'
          WHEN false THEN ',"ageRestricted":false'
          ELSE ',"ageRestricted":null' END ||
        CASE (alcohol_restricted)
          WHEN true THEN ',"alcoholRestricted":true'
          WHEN false THEN ',"alcoholRestricted":false'
          ELSE ',"alcoholRestricted":null' END ||
        CASE (tobacco_restricted)
          WHEN true THEN ',"tobaccoRestricted":true'
          WHEN false THEN ',"tobaccoRestricted":false'
          ELSE ',"tobaccoRestricted":null' END ||
        CASE (vape_restricted)
          WHEN true THEN ',"vapeRestricted":true'
          WHEN false THEN ',"vapeRestricted":false'
          ELSE ',"vapeRestricted":null' END ||
        COALESCE(',"updatedAt":"' || public.row_json_instant(updated_at) || '"', ',"updatedAt":null') ||
        '}'
      ) STORED,
      ADD COLUMN stock_row_v1_1 text GENERATED ALWAYS AS (
        COALESCE('{"productId":"' || (id) || '"', '{"productId":null') ||
        COALESCE(',"storeId":"' || (store_id) || '"', ',"storeId":null') ||
        ',"sku":' || COALESCE(public.row_json_text(sku), 'null') ||
        ',"barcode":' || COALESCE(public.row_json_text(barcode), 'null') ||
        ',"productName":' || COALESCE(public.row_json_text(name), 'null')
      ) STORED`);
    await q.query(`ALTER TABLE public.vat_rates
      ADD COLUMN product_row_v1_2 text GENERATED ALWAYS AS (
        CASE WHEN id IS NOT NULL THEN (COALESCE(',"vatRate":{"id":"' || (id) || '"', ',"vatRate":{"id":null') ||
        ',"code":' || COALESCE(public.row_json_text(code), 'null') ||
        ',"name":' || COALESCE(public.row_json_text(name), 'null') ||
        COALESCE(',"percentage":"' || (percentage)::numeric::text || '"', ',"percentage":null') ||
        '}') ELSE ',"vatRate":null' END
      ) STORED`);
    await q.query(`ALTER TABLE public.stock_levels
      ADD COLUMN stock_row_v1_2 text GENERATED ALWAYS AS (
        CASE (COALESCE(track_stock, false))
          WHEN true THEN ',"trackStock":true'
          WHEN false THEN ',"trackStock":false'
          ELSE ',"trackStock":null' END ||
        COALESCE(',"quantity":"' || (COALESCE(quantity, 0.000))::numeric::text || '"', ',"quantity":null') ||
        COALESCE(',"lowStockThreshold":"' || (COALESCE(low_stock_threshold, 0.000))::numeric::text || '"', ',"lowStockThreshold":null') ||
        COALESCE(',"reorderLevel":"' || (COALESCE(reorder_level, 0.000))::numeric::text || '"', ',"reorderLevel":null') ||
        CASE
          WHEN track_stock IS NOT TRUE THEN ',"availability":"not_tracked"'
          WHEN quantity <= 0 THEN ',"availability":"out_of_stock"'
          WHEN quantity <= reorder_level THEN ',"availability":"low_stock"'
          ELSE ',"availability":"in_stock"' END
      ) STORED`);
    await q.query(markChange(GENERATED));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(markChange(['search_text']));
    await q.query(`ALTER TABLE public.vat_rates DROP COLUMN product_row_v1_2`);
    await q.query(`ALTER TABLE public.stock_levels DROP COLUMN stock_row_v1_2`);
    await q.query(
      `ALTER TABLE public.products DROP COLUMN product_row_v1_1, DROP COLUMN product_row_v1_3, DROP COLUMN stock_row_v1_1`,
    );
    await q.query(`DROP FUNCTION public.row_json_instant(timestamptz)`);
    await q.query(`DROP FUNCTION public.row_json_text(text)`);
  }
}

/** Every generated column of the marked tables: none is a change of its own. */
const GENERATED = [
  'search_text',
  'product_row_v1_1',
  'product_row_v1_2',
  'product_row_v1_3',
  'stock_row_v1_1',
  'stock_row_v1_2',
];

/** mark_change as FailSafeSync wrote it, comparing rows without `generated` and the marker. */
const markChange = (generated: readonly string[]): string => {
  const without = `- ARRAY[${[...generated, 'change_xact'].map((c) => `'${c}'`).join(', ')}]`;
  return `CREATE OR REPLACE FUNCTION public.mark_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT'
           OR NEW.change_xact = public.current_xact()
           OR to_jsonb(NEW) ${without} IS DISTINCT FROM to_jsonb(OLD) ${without} THEN
          NEW.change_xact := public.current_xact();
        ELSE
          NEW.change_xact := OLD.change_xact;
        END IF;
        RETURN NEW;
      END
    $$`;
};

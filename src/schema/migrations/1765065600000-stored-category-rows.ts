import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The category row stored (src/lists/stored-row.ts), as the StoredRows migration stored the product and
 * stock rows: every key of a category reads the category alone, so its whole JSON is one generated
 * column, computed by PostgreSQL on every write path, and a read of the categories sends it as it is.
 * Why: writing each row's JSON was about two thirds of a categories read's database time
 * (docs/performance.md#stored-category-rows).
 *
 * `sortOrder` is written by the `integer` writer (its digits through bigint's output, which depends on
 * no setting), the bytes `to_json` wrote. Categories are not a synced table: no change marker compares
 * their rows.
 *
 * Adding the column rewrites categories under an ACCESS EXCLUSIVE lock, without the migrations'
 * statement timeout (docs/operations.md#upgrades); a tenant's categories are few.
 *
 * A migration is a snapshot: test/stored-rows.e2e-spec.ts fails when the column's expression differs
 * from what the declaration derives now, and the service refuses to read stored rows that are not
 * (src/row-writers/row-writers-state.ts).
 */
export class StoredCategoryRows1765065600000 implements MigrationInterface {
  name = 'StoredCategoryRows1765065600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`SET LOCAL statement_timeout = 0`);
    await q.query(`ALTER TABLE public.categories
      ADD COLUMN category_row_v1_1 text GENERATED ALWAYS AS (
        COALESCE('{"id":"' || (id) || '"', '{"id":null') ||
        COALESCE(',"storeId":"' || (store_id) || '"', ',"storeId":null') ||
        COALESCE(',"parentCategoryId":"' || (parent_category_id) || '"', ',"parentCategoryId":null') ||
        ',"name":' || COALESCE(public.row_json_text(name), 'null') ||
        ',"code":' || COALESCE(public.row_json_text(code), 'null') ||
        ',"description":' || COALESCE(public.row_json_text(description), 'null') ||
        COALESCE(',"sortOrder":' || (sort_order)::bigint::text, ',"sortOrder":null') ||
        CASE (is_active) WHEN true THEN ',"isActive":true' WHEN false THEN ',"isActive":false' ELSE ',"isActive":null' END ||
        COALESCE(',"updatedAt":"' || public.row_json_instant(updated_at) || '"', ',"updatedAt":null') ||
        '}'
      ) STORED`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE public.categories DROP COLUMN category_row_v1_1`);
  }
}

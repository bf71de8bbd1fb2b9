import { Injectable } from '@nestjs/common';
import { isoMillisSql } from '../../database/sql-format.js';
import type { JsonText } from '../../values/json-text.js';
import { Shapes } from '../../database/statement.js';
import { type DataScope, scopeCondition, scopeShape } from '../../tenancy/data-scope.js';
import { ScopedReader } from '../../tenancy/scoped-reader.js';

export const CATEGORY_SORTS = ['sortOrder', 'name'] as const;
export type CategorySort = (typeof CATEGORY_SORTS)[number];

/** The filters and order of the category list (docs/api-rules.md#filters). */
export interface CategoryFilter {
  readonly activeOnly: boolean;
  readonly parentCategoryId?: string;
  readonly sortBy: CategorySort;
}

type ListInput = { readonly scope: DataScope; readonly filter: CategoryFilter };

/**
 * Each category as JSON text in the contract's key order (CategoryView), from its public columns
 * (`is_archived` is only ever a filter). Archived categories are never returned.
 */
const LIST = new Shapes<ListInput>(
  (i) => [scopeShape(i.scope), i.filter.activeOnly, i.filter.parentCategoryId !== undefined, i.filter.sortBy].join(),
  (i, sql) => {
    const where = [scopeCondition(sql, i.scope).on('categories', 'c'), 'NOT c.is_archived'];
    if (i.filter.activeOnly) where.push('c.is_active');
    if (i.filter.parentCategoryId !== undefined) {
      where.push(`c.parent_category_id = ${sql.param((x) => x.filter.parentCategoryId)}`);
    }
    // Names compare by lower case, in byte order, so the order is the same on every database.
    const order =
      i.filter.sortBy === 'sortOrder'
        ? 'c.sort_order, lower(c.name) COLLATE "C", c.id'
        : 'lower(c.name) COLLATE "C", c.id';
    return sql.build(`SELECT row_to_json(r)::text AS json
  FROM categories c
  CROSS JOIN LATERAL (
    SELECT c.id, c.store_id AS "storeId", c.parent_category_id AS "parentCategoryId", c.name, c.code, c.description,
           c.sort_order AS "sortOrder", c.is_active AS "isActive", ${isoMillisSql('c.updated_at')} AS "updatedAt"
  ) r
 WHERE ${where.join(' AND ')}
 ORDER BY ${order}`);
  },
);

/** The categories of a tenant: every statement of the category route. */
@Injectable()
export class CategoriesRepository {
  constructor(private readonly reader: ScopedReader) {}

  async list(scope: DataScope, filter: CategoryFilter): Promise<JsonText[]> {
    const input: ListInput = { scope, filter };
    const rows = await this.reader.read(scope, { cost: 'expensive' }, (db) =>
      db.rows<{ json: JsonText }, ListInput>(LIST.for(input), input),
    );
    return rows.map((r) => r.json);
  }
}

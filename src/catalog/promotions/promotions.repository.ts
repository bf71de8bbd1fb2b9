import { Injectable } from '@nestjs/common';
import { isoMillisSql } from '../../database/sql-format.js';
import { Shapes } from '../../database/statement.js';
import { type DataScope, scopeCondition, scopeShape } from '../../tenancy/data-scope.js';
import type { PromotionAction, PromotionCondition } from '../../schema/tables/promotion.entity.js';
import { ScopedReader } from '../../tenancy/scoped-reader.js';
import { type Instant, toPostgresTimestamp } from '../../values/formats.js';
import { CUSTOMER_FACING_TYPES, RETURNABLE_STATUSES, type ReturnableStatus } from './promotion-rules.js';

/** The filters of the promotion list (docs/api-rules.md#promotions); `type` is one of CUSTOMER_FACING_TYPES. */
export interface PromotionFilter {
  readonly type?: string;
  /** Only ACTIVE promotions whose window [startsAt, endsAt] contains this instant. */
  readonly activeAt?: Instant;
}

/** A promotion as read: conditions and actions only to write the descriptions, never returned. */
export interface PromotionRow {
  id: string;
  storeId: string;
  name: string;
  type: string;
  status: ReturnableStatus;
  startsAt: string | null;
  endsAt: string | null;
  conditions: PromotionCondition[];
  actions: PromotionAction[];
  updatedAt: string;
  /** The tenant's ISO 4217 currency, for the descriptions. */
  currency: string;
}

type ListInput = { readonly scope: DataScope; readonly filter: PromotionFilter };
type NamesInput = { readonly scope: DataScope; readonly ids: readonly string[] };

const quoted = (values: readonly string[]): string => values.map((v) => `'${v}'`).join(', ');

const LIST = new Shapes<ListInput>(
  (i) => [scopeShape(i.scope), i.filter.type !== undefined, i.filter.activeAt !== undefined].join(),
  (i, sql) => {
    const where = [
      scopeCondition(sql, i.scope).on('promotions', 'pr'),
      // Never coupons, staff or manual discounts, system presets, DRAFT or ARCHIVED, whatever the filters.
      `pr.type IN (${quoted(CUSTOMER_FACING_TYPES)})`,
      'NOT pr.is_system_preset',
      `pr.status IN (${quoted(RETURNABLE_STATUSES)})`,
    ];
    if (i.filter.type !== undefined) where.push(`pr.type = ${sql.param((x) => x.filter.type)}`);
    if (i.filter.activeAt !== undefined) {
      // The stored bounds have millisecond precision: startsAt <= T is startsAt <= floor(T), T <= endsAt is ceil(T) <= endsAt.
      const floor = sql.param((x) => toPostgresTimestamp(x.filter.activeAt!.floorMs));
      const ceil = sql.param((x) => toPostgresTimestamp(x.filter.activeAt!.ceilMs));
      where.push(
        `pr.status = 'ACTIVE'`,
        `(pr.starts_at IS NULL OR pr.starts_at <= CAST(${floor} AS timestamptz))`,
        `(pr.ends_at IS NULL OR CAST(${ceil} AS timestamptz) <= pr.ends_at)`,
      );
    }
    return sql.build(`SELECT pr.id, pr.store_id AS "storeId", pr.name, pr.type, pr.status,
       ${isoMillisSql('pr.starts_at')} AS "startsAt",
       ${isoMillisSql('pr.ends_at')} AS "endsAt",
       pr.conditions, pr.actions,
       ${isoMillisSql('pr.updated_at')} AS "updatedAt", t.currency
  FROM promotions pr JOIN tenants t ON t.id = pr.tenant_id
 WHERE ${where.join('\n   AND ')}
 ORDER BY pr.id`);
  },
);

const namesOf = (table: 'products' | 'categories') =>
  new Shapes<NamesInput>(
    (i) => scopeShape(i.scope),
    (i, sql) =>
      sql.build(
        `SELECT n.id, n.name FROM ${table} n ` +
          `WHERE ${scopeCondition(sql, i.scope).on(table, 'n')} AND n.id = ANY(${sql.param((x) => x.ids)})`,
      ),
  );
const PRODUCT_NAMES = namesOf('products');
const CATEGORY_NAMES = namesOf('categories');

/** The promotions of a tenant, and the names their descriptions may use: every statement of the promotion route. */
@Injectable()
export class PromotionsRepository {
  constructor(private readonly reader: ScopedReader) {}

  list(scope: DataScope, filter: PromotionFilter): Promise<PromotionRow[]> {
    const input: ListInput = { scope, filter };
    return this.reader.read(scope, { cost: 'expensive' }, (db) =>
      db.rows<PromotionRow, ListInput>(LIST.for(input), input),
    );
  }

  /** Names of the products and categories in scope among the given ids (others are simply absent). */
  names(
    scope: DataScope,
    ids: { products: readonly string[]; categories: readonly string[] },
  ): Promise<{ products: Map<string, string>; categories: Map<string, string> }> {
    return this.reader.read(scope, { cost: 'expensive' }, async (db) => {
      const read = async (statement: Shapes<NamesInput>, list: readonly string[]): Promise<Map<string, string>> => {
        if (list.length === 0) return new Map();
        const input: NamesInput = { scope, ids: list };
        const rows = await db.rows<{ id: string; name: string }, NamesInput>(statement.for(input), input);
        return new Map(rows.map((r) => [r.id, r.name]));
      };
      return {
        products: await read(PRODUCT_NAMES, ids.products),
        categories: await read(CATEGORY_NAMES, ids.categories),
      };
    });
  }
}

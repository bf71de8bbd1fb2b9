import { id, instant, oneOf, text, value } from '../../lists/json-columns.js';
import { anyOf, defineList, equals, filtersOf, queryOf, rowOf } from '../../lists/list-definition.js';
import type { PromotionAction, PromotionCondition } from '../../schema/tables/promotion.entity.js';
import { type Instant, parseRfc3339DateTime, toPostgresTimestamp } from '../../values/formats.js';
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

const quoted = (values: readonly string[]): string => values.map((v) => `'${v}'`).join(', ');

/**
 * The promotions, read whole (not paginated), in id order: rows that toPromotionView turns into the
 * customer-facing promotion (the descriptions are written in TypeScript).
 */
export const PROMOTION_LIST = defineList(queryOf<PromotionFilter>(), rowOf<PromotionRow>(), {
  name: 'promotions',
  from: { table: 'promotions', alias: 'pr' },
  key: 'pr.id',
  // Never coupons, staff or manual discounts, system presets, DRAFT or ARCHIVED, whatever the filters.
  where: [
    `pr.type IN (${quoted(CUSTOMER_FACING_TYPES)})`,
    'NOT pr.is_system_preset',
    `pr.status IN (${quoted(RETURNABLE_STATUSES)})`,
  ],
  filters: filtersOf<PromotionFilter>()({
    type: equals('pr.type'),
    // The stored bounds have millisecond precision: startsAt <= T is startsAt <= floor(T), T <= endsAt is ceil(T) <= endsAt.
    activeAt: {
      where: (bind) => [
        `pr.status = 'ACTIVE'`,
        `(pr.starts_at IS NULL OR pr.starts_at <= CAST(${bind((t) => toPostgresTimestamp(t.floorMs))} AS timestamptz))`,
        `(pr.ends_at IS NULL OR CAST(${bind((t) => toPostgresTimestamp(t.ceilMs))} AS timestamptz) <= pr.ends_at)`,
      ],
    },
  }),
  row: {
    joins: [],
    columns: {
      id: id('pr.id'),
      storeId: id('pr.store_id'),
      name: text('pr.name'),
      type: text('pr.type'),
      status: oneOf('pr.status', RETURNABLE_STATUSES),
      startsAt: instant('pr.starts_at'),
      endsAt: instant('pr.ends_at'),
      conditions: value('pr.conditions'),
      actions: value('pr.actions'),
      updatedAt: instant('pr.updated_at'),
      // tenants holds no tenant rows of its own: the promotion's tenant is already the scope's.
      currency: text('(SELECT t.currency FROM tenants t WHERE t.id = pr.tenant_id)'),
    },
  },
  examples: [
    { description: 'ACTIVE and PAUSED of every store', stores: 'all', all: true },
    {
      description: 'active at an instant, of one type, one store',
      stores: 'one',
      all: true,
      filters: { type: 'MULTI_BUY', activeAt: parseRfc3339DateTime('2026-12-01T12:00:00Z')! },
    },
  ],
});

/** A lookup of names by ids. */
export interface NamesQuery {
  readonly ids: readonly string[];
}

/** The names a promotion's description may use: of the products and categories in scope among ids. */
const namesOf = (table: 'products' | 'categories', example: string) =>
  defineList(queryOf<NamesQuery>(), rowOf<{ id: string; name: string }>(), {
    name: `promotion-${table}-names`,
    sql: 'promotions.repository.sql',
    from: { table, alias: 'n' },
    key: 'n.id',
    filters: filtersOf<NamesQuery>()({ ids: anyOf('n.id') }),
    row: { joins: [], columns: { id: id('n.id'), name: text('n.name') } },
    examples: [
      { description: `names: of ${table} in a list of stores`, stores: 'list', all: true, filters: { ids: [example] } },
    ],
  });
export const PRODUCT_NAMES = namesOf('products', 'prd_a1_cola');
export const CATEGORY_NAMES = namesOf('categories', 'cat_a1_soft');

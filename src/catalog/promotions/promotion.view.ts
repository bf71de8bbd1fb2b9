import { toIsoMillis } from '../../shared/format/decimal.js';
import { type DescriptionContext, describeDiscount, describeEligibility } from './promotion-descriptions.js';
import type { PromotionAction, PromotionCondition } from './promotion-rules.js';

/** Promotion types that customers see; coupons, staff and manual discounts never leave the service. */
export const CUSTOMER_FACING_TYPES = ['PERCENT_OFF', 'AMOUNT_OFF', 'FIXED_PRICE', 'MULTI_BUY', 'BUY_X_GET_Y', 'BUNDLE', 'SPEND_AND_SAVE'] as const;
export const RETURNABLE_STATUSES = ['ACTIVE', 'PAUSED'] as const;
export type ReturnableStatus = (typeof RETURNABLE_STATUSES)[number];

/** What the promotion query reads. Conditions and actions are read only to write the descriptions. */
export const PROMOTION_COLUMNS = {
  id: 'pr.id',
  storeId: 'pr.store_id',
  name: 'pr.name',
  type: 'pr.type',
  status: 'pr.status',
  startsAt: 'pr.starts_at',
  endsAt: 'pr.ends_at',
  conditions: 'pr.conditions',
  actions: 'pr.actions',
  updatedAt: 'pr.updated_at',
} as const;

export type PromotionRow = {
  id: string; storeId: string; name: string; type: string; status: ReturnableStatus; startsAt: Date | null; endsAt: Date | null;
  conditions: PromotionCondition[]; actions: PromotionAction[]; updatedAt: Date;
};

export interface PromotionView {
  id: string;
  storeId: string;
  name: string;
  type: string;
  schedule: { startsAt: string | null; endsAt: string | null };
  lifecycle: { status: ReturnableStatus };
  isActive: boolean;
  eligibilityDescription: string;
  discountDescription: string;
  updatedAt: string;
}

/** ACTIVE and now inside [startsAt, endsAt], a null bound being open; independent of the query's filters. */
export function isPromotionActive(row: Pick<PromotionRow, 'status' | 'startsAt' | 'endsAt'>, now: Date): boolean {
  const t = now.getTime();
  return row.status === 'ACTIVE' && (row.startsAt === null || row.startsAt.getTime() <= t) && (row.endsAt === null || t <= row.endsAt.getTime());
}

/** The customer-facing promotion: keys in the contract's order; the raw rules never appear. */
export function toPromotionView(row: PromotionRow, now: Date, ctx: DescriptionContext): PromotionView {
  return {
    id: row.id,
    storeId: row.storeId,
    name: row.name,
    type: row.type,
    schedule: {
      startsAt: row.startsAt === null ? null : toIsoMillis(row.startsAt),
      endsAt: row.endsAt === null ? null : toIsoMillis(row.endsAt),
    },
    lifecycle: { status: row.status },
    isActive: isPromotionActive(row, now),
    eligibilityDescription: describeEligibility(row.conditions, ctx),
    discountDescription: describeDiscount(row.actions, ctx),
    updatedAt: toIsoMillis(row.updatedAt),
  };
}

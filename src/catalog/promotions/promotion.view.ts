import { ApiProperty } from '@nestjs/swagger';
import { IdProperty, TextProperty, TimestampProperty } from '../../openapi/properties.js';
import { ApiSchemaWithExample } from '../../openapi/schema-examples.js';
import { type DescriptionContext, describeDiscount, describeEligibility } from './promotion-descriptions.js';
import { CUSTOMER_FACING_TYPES, RETURNABLE_STATUSES, type ReturnableStatus } from './promotion-rules.js';
import type { PromotionRow } from './promotions.list.js';

export class PromotionSchedule {
  @TimestampProperty({ nullable: true, description: 'Start of the window, inclusive; null: open.' }) startsAt:
    string | null;
  @TimestampProperty({ nullable: true, description: 'End of the window, inclusive; null: open.' })
  endsAt: string | null;
}

export class PromotionLifecycle {
  @ApiProperty({
    enum: [...RETURNABLE_STATUSES],
    enumName: 'PromotionStatus',
    description: 'PAUSED is returned only with activeOnly=false.',
  })
  status: ReturnableStatus;
}

@ApiSchemaWithExample({
  name: 'Promotion',
  // The demo data's meal deal in Camden: running since October, with no end.
  example: {
    id: 'pro_camden_meal',
    storeId: 'sto_camden',
    name: '3 soft drinks for 3.00',
    type: 'MULTI_BUY',
    schedule: { startsAt: '2026-10-01T00:00:00.000Z', endsAt: null },
    lifecycle: { status: 'ACTIVE' },
    isActive: true,
    eligibilityDescription: 'Buy 3 or more from Soft Drinks',
    discountDescription: 'The qualifying items together for GBP 3.00',
    updatedAt: '2026-10-01T12:00:00.000Z',
  } satisfies PromotionView,
})
export class PromotionView {
  @IdProperty() id: string;
  @IdProperty() storeId: string;
  @TextProperty({ description: 'Display name.' }) name: string;
  @ApiProperty({ enum: [...CUSTOMER_FACING_TYPES], enumName: 'PromotionType' }) type: string;
  @ApiProperty({ type: () => PromotionSchedule }) schedule: PromotionSchedule;
  @ApiProperty({ type: () => PromotionLifecycle }) lifecycle: PromotionLifecycle;
  @ApiProperty({
    type: Boolean,
    description:
      'status is ACTIVE and the current time is inside [startsAt, endsAt]; independent of the query filters.',
  })
  isActive: boolean;
  @TextProperty({ description: 'Who or what qualifies, in plain English.' })
  eligibilityDescription: string;
  @TextProperty({
    description: 'The discount, in plain English; amounts carry the currency code.',
  })
  discountDescription: string;
  @TimestampProperty() updatedAt: string;
}

/** ACTIVE and now inside [startsAt, endsAt], a null bound being open; independent of the query's filters. */
export function isPromotionActive(row: Pick<PromotionRow, 'status' | 'startsAt' | 'endsAt'>, now: Date): boolean {
  // The bounds come formatted as the contract's UTC millisecond strings, which compare in time order.
  const t = now.toISOString();
  return (
    row.status === 'ACTIVE' && (row.startsAt === null || row.startsAt <= t) && (row.endsAt === null || t <= row.endsAt)
  );
}

/** The customer-facing promotion: keys in the contract's order; the raw rules never appear. */
export function toPromotionView(row: PromotionRow, now: Date, ctx: DescriptionContext): PromotionView {
  return {
    id: row.id,
    storeId: row.storeId,
    name: row.name,
    type: row.type,
    schedule: {
      startsAt: row.startsAt,
      endsAt: row.endsAt,
    },
    lifecycle: { status: row.status },
    isActive: isPromotionActive(row, now),
    eligibilityDescription: describeEligibility(row.conditions, ctx),
    discountDescription: describeDiscount(row.actions, ctx),
    updatedAt: row.updatedAt,
  };
}

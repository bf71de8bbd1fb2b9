import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IdProperty, TextProperty, TimestampProperty } from '../../openapi/properties.js';
import { type DescriptionContext, describeDiscount, describeEligibility } from './promotion-descriptions.js';
import { CUSTOMER_FACING_TYPES, RETURNABLE_STATUSES, type ReturnableStatus } from './promotion-rules.js';
import type { PromotionRow } from './promotions.repository.js';

export class PromotionSchedule {
  @TimestampProperty({ nullable: true, description: 'Start of the window, inclusive; null: open.' }) startsAt:
    string | null;
  @TimestampProperty({ nullable: true, description: 'End of the window, inclusive; null: open.', example: null })
  endsAt: string | null;
}

export class PromotionLifecycle {
  @ApiProperty({
    enum: [...RETURNABLE_STATUSES],
    enumName: 'PromotionStatus',
    description: 'PAUSED is returned only with activeOnly=false.',
    example: 'ACTIVE',
  })
  status: ReturnableStatus;
}

@ApiSchema({ name: 'Promotion' })
export class PromotionView {
  @IdProperty({ example: 'pro_camden_meal' }) id: string;
  @IdProperty({ example: 'sto_camden' }) storeId: string;
  @TextProperty({ description: 'Display name.', example: '3 soft drinks for 3.00' }) name: string;
  @ApiProperty({ enum: [...CUSTOMER_FACING_TYPES], enumName: 'PromotionType', example: 'MULTI_BUY' }) type: string;
  @ApiProperty({ type: () => PromotionSchedule }) schedule: PromotionSchedule;
  @ApiProperty({ type: () => PromotionLifecycle }) lifecycle: PromotionLifecycle;
  @ApiProperty({
    type: Boolean,
    description:
      'status is ACTIVE and the current time is inside [startsAt, endsAt]; independent of the query filters.',
  })
  isActive: boolean;
  @TextProperty({ description: 'Who or what qualifies, in plain English.', example: 'Buy 3 or more from Soft Drinks' })
  eligibilityDescription: string;
  @TextProperty({
    description: 'The discount, in plain English; amounts carry the currency code.',
    example: 'The qualifying items together for GBP 3.00',
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

import { Column, Entity } from 'typeorm';
import { IdColumn, IdPrimaryColumn, TimestampColumn } from '../columns.js';
import { TenantRows } from '../tenant-rows.js';

/**
 * The internal promotion rules as stored (docs/dataset-format.md#promotion-rules): read to write the
 * descriptions, never returned.
 */
export type PromotionCondition =
  | { kind: 'product_quantity'; minQuantity: number; productIds: string[] }
  | { kind: 'category_quantity'; minQuantity: number; categoryIds: string[] }
  | { kind: 'basket_spend'; minSpend: string }
  | { kind: 'customer_group'; group: string }
  | { kind: 'time_of_day'; from: string; to: string };

export type PromotionAction =
  | { kind: 'percent_off'; percent: string; target: 'qualifying_items' | 'basket' }
  | { kind: 'amount_off'; amount: string; target: 'qualifying_items' | 'basket' }
  | { kind: 'fixed_price'; price: string }
  | { kind: 'free_items'; quantity: number; which: 'cheapest' | 'most_expensive' };

export const PROMOTION_STATUSES = ['DRAFT', 'ACTIVE', 'PAUSED', 'ARCHIVED'] as const;
export type PromotionStatus = (typeof PROMOTION_STATUSES)[number];

/** Internal promotion record: conditions, actions and builder configuration never leave the service. */
@Entity({ name: 'promotions' })
@TenantRows({ store: 'store_id' })
export class Promotion {
  @IdPrimaryColumn() id: string;
  @IdColumn('tenant_id') tenantId: string;
  @IdColumn('store_id') storeId: string;
  @Column({ type: 'text' }) name: string;
  @Column({ type: 'text' }) type: string;
  @Column({ type: 'text' }) status: PromotionStatus;
  @TimestampColumn('starts_at', { nullable: true }) startsAt: Date | null;
  @TimestampColumn('ends_at', { nullable: true }) endsAt: Date | null;
  @Column({ name: 'is_system_preset', type: 'boolean' }) isSystemPreset: boolean;
  @Column({ type: 'jsonb' }) conditions: PromotionCondition[];
  @Column({ type: 'jsonb' }) actions: PromotionAction[];
  @Column({ name: 'builder_config', type: 'jsonb', nullable: true }) builderConfig: unknown;
  @IdColumn('created_by_staff_id', { nullable: true }) createdByStaffId: string | null;
  @TimestampColumn('updated_at') updatedAt: Date;
}

/**
 * The internal promotion rules of a data set (docs/dataset-format.md#promotion-rules): read to write the
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

export const CONDITION_KINDS = [
  'product_quantity',
  'category_quantity',
  'basket_spend',
  'customer_group',
  'time_of_day',
] as const;
export const ACTION_KINDS = ['percent_off', 'amount_off', 'fixed_price', 'free_items'] as const;

/** Promotion types that customers see; coupons, staff and manual discounts never leave the service. */
export const CUSTOMER_FACING_TYPES = [
  'PERCENT_OFF',
  'AMOUNT_OFF',
  'FIXED_PRICE',
  'MULTI_BUY',
  'BUY_X_GET_Y',
  'BUNDLE',
  'SPEND_AND_SAVE',
] as const;
export const RETURNABLE_STATUSES = ['ACTIVE', 'PAUSED'] as const;
export type ReturnableStatus = (typeof RETURNABLE_STATUSES)[number];

export const isCustomerFacingType = (type: string): boolean =>
  (CUSTOMER_FACING_TYPES as readonly string[]).includes(type);

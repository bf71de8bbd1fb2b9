/** Which promotions customers may see (docs/api-rules.md#filters); the stored rules are in the schema. */
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

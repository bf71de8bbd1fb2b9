import type { Instant } from '../../values/formats.js';
import { BooleanParam, DateTimeParam, StoreIdParam, TextParam } from '../../params/params.js';

export class ListPromotionsQuery {
  @StoreIdParam()
  storeId?: string;

  @DateTimeParam({
    description:
      'Only ACTIVE promotions whose window contains this instant (startsAt <= activeAt <= ' +
      'endsAt; a null bound is open). Overrides activeOnly.',
    example: '2026-12-01T12:00:00Z',
  })
  activeAt?: Instant;

  @TextParam({
    description:
      'Exact promotion type. Types outside the customer-facing list (PERCENT_OFF, AMOUNT_OFF, ' +
      'FIXED_PRICE, MULTI_BUY, BUY_X_GET_Y, BUNDLE, SPEND_AND_SAVE) give an empty array.',
    example: 'MULTI_BUY',
  })
  type?: string;

  @BooleanParam({
    description:
      'true: only ACTIVE promotions whose window contains the current time. false: ACTIVE and PAUSED promotions, whatever their window.',
    default: true,
    example: false,
  })
  activeOnly: boolean = true;
}

import { compareDecimal } from '../../values/decimal.js';

export const AVAILABILITIES = ['not_tracked', 'out_of_stock', 'low_stock', 'in_stock'] as const;
export type Availability = (typeof AVAILABILITIES)[number];

/**
 * The contract's derivation, with exact decimal comparisons: untracked is not_tracked whatever the
 * quantity; quantity <= 0 is out_of_stock; 0 < quantity <= reorderLevel is low_stock; above it in_stock.
 */
export function deriveAvailability(trackStock: boolean, quantity: string, reorderLevel: string): Availability {
  if (!trackStock) return 'not_tracked';
  if (compareDecimal(quantity, '0') <= 0) return 'out_of_stock';
  if (compareDecimal(quantity, reorderLevel) <= 0) return 'low_stock';
  return 'in_stock';
}

/** The same rule for `lowStockOnly=true`, as SQL over stock_levels `s` (exact numeric comparison). */
export const LOW_STOCK_SQL = 's.track_stock AND s.quantity > 0 AND s.quantity <= s.reorder_level';

import { formatDecimal, toIsoMillis } from '../../shared/format/decimal.js';
import { type Availability, deriveAvailability } from './availability.js';

/**
 * A product without a stock record is a row with trackStock false and zero quantities; the row's
 * updatedAt is the later of the product's and its stock level's update times.
 */
export const STOCK_COLUMNS = {
  productId: 'p.id',
  storeId: 'p.store_id',
  sku: 'p.sku',
  barcode: 'p.barcode',
  productName: 'p.name',
  trackStock: 'COALESCE(s.track_stock, false)',
  quantity: `COALESCE(s.quantity, 0)::text`,
  lowStockThreshold: `COALESCE(s.low_stock_threshold, 0)::text`,
  reorderLevel: `COALESCE(s.reorder_level, 0)::text`,
  updatedAt: 'GREATEST(p.updated_at, s.updated_at)',
} as const;

export const STOCK_UPDATED_AT_SQL = STOCK_COLUMNS.updatedAt;

export type StockRow = {
  productId: string; storeId: string; sku: string; barcode: string | null; productName: string; trackStock: boolean;
  quantity: string; lowStockThreshold: string; reorderLevel: string; updatedAt: Date;
};

export interface StockRowView {
  productId: string;
  storeId: string;
  sku: string;
  barcode: string | null;
  productName: string;
  trackStock: boolean;
  quantity: string;
  lowStockThreshold: string;
  reorderLevel: string;
  availability: Availability;
  updatedAt: string;
}

/** The inventory row of decisions.md, keys in its order; cost layers and movements are never read. */
export function toStockRowView(row: StockRow): StockRowView {
  return {
    productId: row.productId,
    storeId: row.storeId,
    sku: row.sku,
    barcode: row.barcode,
    productName: row.productName,
    trackStock: row.trackStock,
    quantity: formatDecimal(row.quantity, 3),
    lowStockThreshold: formatDecimal(row.lowStockThreshold, 3),
    reorderLevel: formatDecimal(row.reorderLevel, 3),
    availability: deriveAvailability(row.trackStock, row.quantity, row.reorderLevel),
    updatedAt: toIsoMillis(row.updatedAt),
  };
}

import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { formatDecimal } from '../../values/decimal.js';
import { isoMillisSql } from '../../database/timestamp-sql.js';
import { IdProperty, PageFields, QuantityProperty, TextProperty, TimestampProperty } from '../../openapi/properties.js';
import { AVAILABILITIES, type Availability, deriveAvailability } from './availability.js';

/**
 * A product without a stock record is a row with trackStock false and zero quantities; the row's
 * updatedAt is the later of the product's and its stock level's update times.
 */
/** The later of the product's and its stock level's update times (a missing stock level counts for nothing). */
export const STOCK_UPDATED_AT_SQL = 'GREATEST(p.updated_at, s.updated_at)';

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
  updatedAt: isoMillisSql(STOCK_UPDATED_AT_SQL),
} as const;

export type StockRow = {
  productId: string;
  storeId: string;
  sku: string;
  barcode: string | null;
  productName: string;
  trackStock: boolean;
  quantity: string;
  lowStockThreshold: string;
  reorderLevel: string;
  updatedAt: string;
};

@ApiSchema({ name: 'StockRow' })
export class StockRowView {
  @IdProperty({ example: 'prd_camden_001' }) productId: string;
  @IdProperty({ example: 'sto_camden' }) storeId: string;
  @TextProperty({ example: 'SD-100' }) sku: string;
  @TextProperty({ nullable: true, example: '5010000000000' }) barcode: string | null;
  @TextProperty({ example: 'Cola 330ml can' }) productName: string;
  @ApiProperty({
    type: Boolean,
    description: 'Whether stock is tracked at all; when false, availability is not_tracked.',
  })
  trackStock: boolean;
  @QuantityProperty({ description: 'Current quantity, exact; may be negative.' }) quantity: string;
  @QuantityProperty({
    description: 'Informational: mirrored from reorderLevel on every save; not used to compute availability.',
  })
  lowStockThreshold: string;
  @QuantityProperty({ description: 'The threshold used for low_stock.' }) reorderLevel: string;
  @ApiProperty({
    enum: [...AVAILABILITIES],
    enumName: 'Availability',
    example: 'in_stock',
    description:
      'not_tracked when trackStock is false; else out_of_stock when quantity <= 0, low_stock ' +
      'when 0 < quantity <= reorderLevel, in_stock above (exact decimal comparison).',
  })
  availability: Availability;
  @TimestampProperty({ description: "The later of the product's and its stock level's update times." })
  updatedAt: string;
}

export class StockPage {
  @ApiProperty({ type: () => [StockRowView] }) rows: StockRowView[];
  @PageFields.page() page: number;
  @PageFields.pageSize() pageSize: number;
  @PageFields.total() total: number;
  @PageFields.totalPages() totalPages: number;
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
    updatedAt: row.updatedAt,
  };
}

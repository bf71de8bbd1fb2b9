import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IdProperty, PageFields, QuantityProperty, TextProperty, TimestampProperty } from '../../openapi/properties.js';

export const AVAILABILITIES = ['not_tracked', 'out_of_stock', 'low_stock', 'in_stock'] as const;
export type Availability = (typeof AVAILABILITIES)[number];

/**
 * The inventory row of decisions.md, keys in its order. StockRepository has PostgreSQL write each
 * row as JSON in exactly this order (PUBLIC_STOCK_ROW); cost layers and movements are never read.
 */
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
  @PageFields.rows([StockRowView]) rows: StockRowView[];
  @PageFields.page() page: number;
  @PageFields.pageSize() pageSize: number;
  @PageFields.total() total: number;
  @PageFields.totalPages() totalPages: number;
}

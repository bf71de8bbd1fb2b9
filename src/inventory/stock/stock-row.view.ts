import { ApiProperty } from '@nestjs/swagger';
import { IdProperty, QuantityProperty, TextProperty, TimestampProperty } from '../../openapi/properties.js';
import { PageFields } from '../../lists/page.js';
import { ApiSchemaWithExample } from '../../openapi/schema-examples.js';

export const AVAILABILITIES = ['not_tracked', 'out_of_stock', 'low_stock', 'in_stock'] as const;
export type Availability = (typeof AVAILABILITIES)[number];

/**
 * The stock row (docs/api-rules.md#values), keys in the contract's order. STOCK_LIST's columns (keyed by
 * this class, in its order) have PostgreSQL write each row as JSON; cost layers and movements are never read.
 */
/** The demo data's cola can in Camden: 53 on the shelf, reordered at 12, so in_stock. */
const STOCK_ROW_EXAMPLE = {
  productId: 'prd_camden_001',
  storeId: 'sto_camden',
  sku: 'SD-100',
  barcode: '5010000000000',
  productName: 'Cola 330ml can',
  trackStock: true,
  quantity: '53.000',
  lowStockThreshold: '12.000',
  reorderLevel: '12.000',
  availability: 'in_stock',
  updatedAt: '2026-10-06T07:00:00.000Z',
} satisfies StockRowView;

@ApiSchemaWithExample({ name: 'StockRow', example: STOCK_ROW_EXAMPLE })
export class StockRowView {
  @IdProperty() productId: string;
  @IdProperty() storeId: string;
  @TextProperty() sku: string;
  @TextProperty({ nullable: true }) barcode: string | null;
  @TextProperty() productName: string;
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
    description:
      'not_tracked when trackStock is false; else out_of_stock when quantity <= 0, low_stock ' +
      'when 0 < quantity <= reorderLevel, in_stock above (exact decimal comparison).',
  })
  availability: Availability;
  @TimestampProperty({ description: "The later of the product's and its stock level's update times." })
  updatedAt: string;
}

@ApiSchemaWithExample({
  name: 'StockPage',
  // The first page of Camden's stock (its active products), one row per page.
  example: { rows: [STOCK_ROW_EXAMPLE], page: 1, pageSize: 1, total: 36, totalPages: 36 } satisfies StockPage,
})
export class StockPage {
  @PageFields.rows([StockRowView]) rows: StockRowView[];
  @PageFields.page() page: number;
  @PageFields.pageSize() pageSize: number;
  @PageFields.total() total: number;
  @PageFields.totalPages() totalPages: number;
}

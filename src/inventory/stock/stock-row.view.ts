import { ApiProperty } from '@nestjs/swagger';
import { IdProperty, QuantityProperty, TextProperty, TimestampProperty } from '../../openapi/properties.js';
import { bool, decimal, firstOf, id, instant, text } from '../../lists/json-columns.js';
import type { ListRow } from '../../lists/list-definition.js';
import { PageFields } from '../../lists/page.js';
import { ApiSchemaWithExample } from '../../openapi/schema-examples.js';

export const AVAILABILITIES = ['not_tracked', 'out_of_stock', 'low_stock', 'in_stock'] as const;
export type Availability = (typeof AVAILABILITIES)[number];

/**
 * The stock row (docs/api-rules.md#values), keys in the contract's order. STOCK_ROW below (keyed by
 * this class, in its order) has PostgreSQL write each row as JSON; cost layers and movements are never read.
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

/**
 * Where each key of a stock row comes from, over products `p` and their stock level `s` (left-joined):
 * STOCK_LIST's row, beside the class so that a new column is one edit (see PRODUCT_ROW). A product
 * without a stock level reads trackStock false, zero quantities and not_tracked.
 */
export const STOCK_ROW = {
  joins: [{ kind: 'LEFT JOIN', table: 'stock_levels', alias: 's', on: 's.product_id = p.id' }],
  columns: {
    productId: id('p.id'),
    storeId: id('p.store_id'),
    sku: text('p.sku'),
    barcode: text('p.barcode'),
    productName: text('p.name'),
    trackStock: bool('COALESCE(s.track_stock, false)'),
    quantity: decimal('COALESCE(s.quantity, 0.000)'),
    lowStockThreshold: decimal('COALESCE(s.low_stock_threshold, 0.000)'),
    reorderLevel: decimal('COALESCE(s.reorder_level, 0.000)'),
    // The contract's rule, in its order: written as constants, chosen by the first condition that holds.
    availability: firstOf<Availability>(
      [
        ['s.track_stock IS NOT TRUE', 'not_tracked'],
        ['s.quantity <= 0', 'out_of_stock'],
        ['s.quantity <= s.reorder_level', 'low_stock'],
      ],
      'in_stock',
    ),
    updatedAt: instant('GREATEST(p.updated_at, s.updated_at)'),
  },
  // Written when a product or stock level is (src/lists/stored-row.ts); a new version with any change above.
  stored: 'stock_row_v1',
} satisfies ListRow<StockRowView>;

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

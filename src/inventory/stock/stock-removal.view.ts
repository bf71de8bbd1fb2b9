import { PageFields } from '../../lists/page.js';
import { IdProperty, TimestampProperty } from '../../openapi/properties.js';
import { ApiSchemaWithExample } from '../../openapi/schema-examples.js';

const REMOVED_AT = 'When it left the view (UTC, milliseconds).';
const STORE = 'The store it left (where it was when it left your view).';

@ApiSchemaWithExample({
  name: 'StockRemoval',
  description: 'A stock row that left your view (its product did): delete it from your copy.',
  example: { productId: 'prd_camden_001', storeId: 'sto_camden', removedAt: '2026-11-02T09:15:00.000Z' },
})
export class StockRemovalView {
  @IdProperty({ description: 'The product id of the stock row.' }) productId: string;
  @IdProperty({ description: STORE }) storeId: string;
  @TimestampProperty({ description: REMOVED_AT }) removedAt: string;
}

@ApiSchemaWithExample({
  name: 'StockRemovalPage',
  example: {
    rows: [{ productId: 'prd_camden_001', storeId: 'sto_camden', removedAt: '2026-11-02T09:15:00.000Z' }],
    page: 1,
    pageSize: 1,
    total: 1,
    totalPages: 1,
  },
})
export class StockRemovalPage {
  @PageFields.rows([StockRemovalView]) rows: StockRemovalView[];
  @PageFields.page() page: number;
  @PageFields.pageSize() pageSize: number;
  @PageFields.total() total: number;
  @PageFields.totalPages() totalPages: number;
}

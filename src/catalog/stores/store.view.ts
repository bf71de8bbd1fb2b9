import { IdProperty, TextProperty } from '../../openapi/properties.js';
import { id, text } from '../../lists/json-columns.js';
import type { ListRow } from '../../lists/list-definition.js';
import { PageFields } from '../../lists/page.js';
import { ApiSchemaWithExample } from '../../openapi/schema-examples.js';

/** The demo data's Brixton store, the first of Corner Shop's in id order (fixtures/demo.json). */
const STORE_EXAMPLE = { id: 'sto_brixton', name: 'Brixton Station Road' } satisfies StoreView;

/** A store the key may read: its id (the `storeId` of every other list) and its name. */
@ApiSchemaWithExample({ name: 'Store', example: STORE_EXAMPLE })
export class StoreView {
  @IdProperty({ description: 'The id every other list gives as storeId and takes as its storeId filter.' })
  id: string;
  @TextProperty() name: string;
}

/** Where each key of a store comes from (STORE_LIST's row; see PRODUCT_ROW): names only. */
export const STORE_ROW = {
  joins: [],
  columns: { id: id('s.id'), name: text('s.name') },
} satisfies ListRow<StoreView>;

@ApiSchemaWithExample({
  name: 'StorePage',
  // The first page of the demo ERP key's stores, one per page.
  example: { rows: [STORE_EXAMPLE], page: 1, pageSize: 1, total: 3, totalPages: 3 } satisfies StorePage,
})
export class StorePage {
  @PageFields.rows([StoreView]) rows: StoreView[];
  @PageFields.page() page: number;
  @PageFields.pageSize() pageSize: number;
  @PageFields.total() total: number;
  @PageFields.totalPages() totalPages: number;
}

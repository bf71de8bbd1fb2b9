import { defineList, filtersOf } from '../../lists/list-definition.js';
import { PageQuery } from '../../lists/page.js';
import { StoreIdParam } from '../../params/params.js';
import { STORE_ROW, StoreView } from './store.view.js';

export class ListStoresQuery extends PageQuery {
  @StoreIdParam()
  storeId?: string;
}

/**
 * The stores the key may read: every store of its tenant, or its allow-list. The store boundary of
 * `stores` is its own id (its @TenantRows declaration): a key limited to stores sees only those.
 * Names only; nothing else of a store is public. Not synced (stores carry no change marker).
 */
export const STORE_LIST = defineList(ListStoresQuery, StoreView, {
  name: 'stores',
  from: { table: 'stores', alias: 's' },
  key: 's.id',
  filters: filtersOf<ListStoresQuery>()({}),
  row: STORE_ROW,
  examples: [
    { description: 'every store of the tenant, page 1', stores: 'all' },
    { description: 'a key limited to one store', stores: 'one', answers: ['sto_a1'] },
    {
      description: 'a key limited to a list of stores, after an id (cursor)',
      stores: 'list',
      window: { pageSize: 50, offset: 0, afterId: 'sto_a1' },
    },
  ],
});

import { Injectable } from '@nestjs/common';
import type { ApiCaller } from '../../auth/api-caller.js';
import { CursorCodec } from '../../pagination/cursor.js';
import { type ListedPage, Walks } from '../../pagination/walk.js';
import { DataScopeService } from '../../tenancy/data-scope.js';
import type { ListStockQuery } from './list-stock.query.js';
import { type StockFilter, StockRepository } from './stock.repository.js';

@Injectable()
export class StockService {
  constructor(
    private readonly scopes: DataScopeService,
    private readonly stock: StockRepository,
    private readonly walks: Walks,
  ) {}

  /** One row per product in scope, with or without a stock record, ordered by product id. */
  async list(caller: ApiCaller, query: ListStockQuery): Promise<ListedPage> {
    const filter: StockFilter = {
      activeOnly: query.activeOnly,
      productId: query.productId,
      sku: query.sku,
      barcode: query.barcode,
      categoryId: query.categoryId,
      updatedSince: query.updatedSince,
      lowStockOnly: query.lowStockOnly === true,
    };
    // A cursor belongs to this list of this client: the route, the key's client and tenant, the filters.
    const binding = CursorCodec.binding([
      'stock',
      caller.tenantId,
      caller.clientId,
      query.storeId,
      filter,
      query.pageSize,
      query.changedSince,
    ]);
    // Every row of the scope, inactive ones included: a walk of it can be a sync basis.
    const { activeOnly, lowStockOnly, ...rowFilters } = filter;
    const syncable = !activeOnly && !lowStockOnly && Object.values(rowFilters).every((v) => v === undefined);
    // A cursor is checked (400) before the store is (404): parameters come before stores.
    const walk = await this.walks.begin(query, binding, syncable, caller.deadlineMs);
    const scope = await this.scopes.resolve(caller, query.storeId);
    const listed = await this.stock.list(scope, filter, walk.window, walk.sync);
    return this.walks.end(walk, binding, listed, caller.deadlineMs);
  }
}

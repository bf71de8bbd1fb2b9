import { Injectable } from '@nestjs/common';
import type { ApiCaller } from '../../auth/api-caller.js';
import type { JsonText } from '../../values/json-text.js';
import { ApiError } from '../../http/api-error.js';
import { CursorCodec } from '../../pagination/cursor.js';
import { type ListedPage, Walks } from '../../pagination/walk.js';
import { DataScopeService } from '../../tenancy/data-scope.js';
import { searchTerms } from '../../values/like-pattern.js';
import type { ListProductsQuery } from './list-products.query.js';
import { type ProductFilter, ProductsRepository } from './products.repository.js';

@Injectable()
export class ProductsService {
  constructor(
    private readonly scopes: DataScopeService,
    private readonly products: ProductsRepository,
    private readonly walks: Walks,
  ) {}

  async list(caller: ApiCaller, query: ListProductsQuery): Promise<ListedPage> {
    const filter = productFilter(query);
    // A cursor belongs to this list of this client: the route, the key's client and tenant, the filters.
    const binding = CursorCodec.binding([
      'products',
      caller.tenantId,
      caller.clientId,
      query.storeId,
      filter,
      query.pageSize,
      query.changedSince,
    ]);
    // Every row of the scope, inactive ones included: a walk of it can be a sync basis.
    const syncable =
      !filter.activeOnly && Object.values({ ...filter, activeOnly: undefined }).every((v) => v === undefined);
    // A cursor is checked (400) before the store is (404): parameters come before stores.
    const walk = await this.walks.begin(query, binding, syncable, caller.deadlineMs);
    const scope = await this.scopes.resolve(caller, query.storeId);
    const listed = await this.products.list(scope, filter, walk.window, walk.sync);
    return this.walks.end(walk, binding, listed, caller.deadlineMs);
  }

  async get(caller: ApiCaller, id: string): Promise<JsonText> {
    const scope = await this.scopes.resolve(caller);
    const product = await this.products.findById(scope, id);
    if (product === undefined) throw ApiError.notFound();
    return product;
  }
}

function productFilter(query: ListProductsQuery): ProductFilter {
  return {
    activeOnly: query.activeOnly,
    categoryId: query.categoryId,
    sku: query.sku,
    barcode: query.barcode,
    updatedSince: query.updatedSince,
    searchTerms: query.q === undefined ? undefined : searchTerms(query.q),
  };
}

import { Injectable } from '@nestjs/common';
import type { ApiCaller } from '../../auth/api-caller.js';
import type { JsonText } from '../../database/sql-format.js';
import { ApiError } from '../../http/api-error.js';
import { pageBody, pageWindow } from '../../pagination/pagination.js';
import { DataScopeService } from '../../tenancy/data-scope.js';
import { searchTerms } from '../../values/like-pattern.js';
import type { ListProductsQuery } from './list-products.query.js';
import { type ProductFilter, ProductsRepository } from './products.repository.js';

@Injectable()
export class ProductsService {
  constructor(
    private readonly scopes: DataScopeService,
    private readonly products: ProductsRepository,
  ) {}

  async list(caller: ApiCaller, query: ListProductsQuery): Promise<JsonText> {
    const scope = await this.scopes.resolve(caller, query.storeId);
    const listed = await this.products.list(scope, productFilter(query), pageWindow(query));
    return pageBody(listed.rows, query.page, query.pageSize, listed.total);
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

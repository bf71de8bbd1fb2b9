import { Injectable } from '@nestjs/common';
import type { ApiCaller } from '../../auth/api-caller.js';
import type { JsonText } from '../../database/sql-format.js';
import { pageBody, pageWindow } from '../../pagination/pagination.js';
import { DataScopeService } from '../../tenancy/data-scope.js';
import type { ListStockQuery } from './list-stock.query.js';
import { StockRepository } from './stock.repository.js';

@Injectable()
export class StockService {
  constructor(
    private readonly scopes: DataScopeService,
    private readonly stock: StockRepository,
  ) {}

  /** One row per product in scope, with or without a stock record, ordered by product id. */
  async list(caller: ApiCaller, query: ListStockQuery): Promise<JsonText> {
    const scope = await this.scopes.resolve(caller, query.storeId);
    const listed = await this.stock.list(
      scope,
      {
        activeOnly: query.activeOnly,
        productId: query.productId,
        sku: query.sku,
        barcode: query.barcode,
        categoryId: query.categoryId,
        updatedSince: query.updatedSince,
        lowStockOnly: query.lowStockOnly === true,
      },
      pageWindow(query),
    );
    return pageBody(listed.rows, query.page, query.pageSize, listed.total);
  }
}

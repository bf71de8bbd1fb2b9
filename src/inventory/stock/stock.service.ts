import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import type { DataSource, ObjectLiteral, Repository, SelectQueryBuilder } from 'typeorm';
import type { ApiCaller } from '../../auth/api-caller.js';
import { countProductsInScope } from '../../catalog/products/product-counts.js';
import { Product } from '../../catalog/products/product.entity.js';
import { readOne, readRows } from '../../database/read-queries.js';
import { offsetOf, type Page, toPage } from '../../pagination/pagination.js';
import { toPostgresTimestamp } from '../../values/formats.js';
import { inScope, DataScopeService } from '../../tenancy/data-scope.js';
import { LOW_STOCK_SQL } from './availability.js';
import type { ListStockQuery } from './list-stock.query.js';
import {
  STOCK_COLUMNS,
  STOCK_UPDATED_AT_SQL,
  type StockRow,
  type StockRowView,
  toStockRowView,
} from './stock-row.view.js';

@Injectable()
export class StockService {
  constructor(
    @InjectRepository(Product) private readonly products: Repository<Product>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly stores: DataScopeService,
  ) {}

  /** One row per product in scope, with or without a stock record, ordered by product id. */
  async list(caller: ApiCaller, query: ListStockQuery): Promise<Page<StockRowView>> {
    const scope = await this.stores.resolve(caller, query.storeId);
    const productFilters = [query.productId, query.sku, query.barcode, query.categoryId, query.updatedSince].some(
      (f) => f !== undefined,
    );
    // The matching product ids, and their exact number.
    let ids: SelectQueryBuilder<ObjectLiteral>;
    let total: number;
    if (query.lowStockOnly === true && !productFilters) {
      // Low stock alone: the low-stock partial index holds every answer (with the store and the
      // product's isActive), so neither the count nor the page joins the products.
      ids = inScope(this.dataSource.createQueryBuilder().from('stock_levels', 's'), 's', scope).andWhere(
        `(${LOW_STOCK_SQL})`,
      );
      if (query.activeOnly) ids.andWhere('s.product_is_active');
      total = (await readOne<{ total: number }>(ids.clone().select('COUNT(*)::int', 'total')))!.total;
      ids.select('s.product_id', 'id').orderBy('s.product_id', 'ASC');
    } else {
      ids = inScope(this.products.createQueryBuilder('p'), 'p', scope).leftJoin(
        'stock_levels',
        's',
        's.product_id = p.id',
      );
      if (query.activeOnly) ids.andWhere('p.is_active');
      if (query.productId !== undefined) ids.andWhere('p.id = :productId', { productId: query.productId });
      if (query.sku !== undefined) ids.andWhere('p.sku = :sku', { sku: query.sku });
      if (query.barcode !== undefined) ids.andWhere('p.barcode = :barcode', { barcode: query.barcode });
      if (query.categoryId !== undefined) ids.andWhere('p.category_id = :categoryId', { categoryId: query.categoryId });
      if (query.updatedSince !== undefined) {
        ids.andWhere(`${STOCK_UPDATED_AT_SQL} >= CAST(:updatedSince AS timestamptz)`, {
          updatedSince: toPostgresTimestamp(query.updatedSince.ceilMs),
        });
      }
      if (query.lowStockOnly === true) ids.andWhere(`(${LOW_STOCK_SQL})`);
      // Every product in scope has exactly one row, so without row filters the total is the product count.
      total =
        !productFilters && query.lowStockOnly !== true
          ? await countProductsInScope(this.dataSource, scope, query.activeOnly)
          : (await readOne<{ total: number }>(ids.clone().select('COUNT(*)::int', 'total')))!.total;
      ids.select('p.id', 'id').orderBy('p.id', 'ASC');
    }
    if (offsetOf(query) >= total) return toPage([], query, total);
    const page = this.dataSource
      .createQueryBuilder()
      .from(`(${ids.getQuery()} LIMIT :pageLimit OFFSET :pageOffset)`, 'page')
      .innerJoin('products', 'p', 'p.id = page.id')
      .leftJoin('stock_levels', 's', 's.product_id = p.id')
      .select([]);
    for (const [alias, column] of Object.entries(STOCK_COLUMNS)) page.addSelect(column, alias);
    const rows = await readRows<StockRow>(
      page
        .setParameters({ ...ids.getParameters(), pageLimit: query.pageSize, pageOffset: offsetOf(query) })
        .orderBy('p.id', 'ASC'),
    );
    return toPage(rows.map(toStockRowView), query, total);
  }
}

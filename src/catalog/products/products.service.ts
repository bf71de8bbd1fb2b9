import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import type { DataSource, Repository, SelectQueryBuilder } from 'typeorm';
import type { ApiCaller } from '../../auth/api-caller.js';
import { readOne, readRows } from '../../database/read-queries.js';
import { ApiError } from '../../http/api-error.js';
import { offsetOf, type Page, toPage } from '../../pagination/pagination.js';
import { toPostgresTimestamp } from '../../values/formats.js';
import { escapeLike, searchTerms } from '../../values/like-pattern.js';
import { inScope, type DataScope, DataScopeService } from '../../tenancy/data-scope.js';
import type { ListProductsQuery } from './list-products.query.js';
import { countProductsInScope } from './product-counts.js';
import { Product } from './product.entity.js';
import { PRODUCT_COLUMNS, type ProductRow, type ProductView, toProductView } from './product.view.js';

@Injectable()
export class ProductsService {
  constructor(
    @InjectRepository(Product) private readonly products: Repository<Product>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly stores: DataScopeService,
  ) {}

  async list(caller: ApiCaller, query: ListProductsQuery): Promise<Page<ProductView>> {
    const scope = await this.stores.resolve(caller, query.storeId);
    const filtered = this.filtered(scope, query);
    const onlyScoped = [query.categoryId, query.q, query.sku, query.barcode, query.updatedSince].every(
      (f) => f === undefined,
    );
    // A text search's best plan depends on its terms: planned afresh each time, never prepared.
    const prepared = query.q === undefined;
    const total = onlyScoped
      ? await countProductsInScope(this.dataSource, scope, query.activeOnly)
      : (await readOne<{ total: number }>(filtered.clone().select('COUNT(*)::int', 'total'), { prepared }))!.total;
    if (offsetOf(query) >= total) return toPage([], query, total);
    // The page's ids first (an index-only scan on the covering index for plain lists), then the
    // columns of just those rows. Limit and offset are parameters, so every page is one statement.
    const ids = filtered.select('p.id', 'id').orderBy('p.id', 'ASC');
    const page = this.withColumns(
      this.dataSource
        .createQueryBuilder()
        .from(`(${ids.getQuery()} LIMIT :pageLimit OFFSET :pageOffset)`, 'page')
        .innerJoin('products', 'p', 'p.id = page.id'),
    )
      .setParameters({ ...ids.getParameters(), pageLimit: query.pageSize, pageOffset: offsetOf(query) })
      .orderBy('p.id', 'ASC');
    const rows = await readRows<ProductRow>(page, { prepared });
    return toPage(rows.map(toProductView), query, total);
  }

  async get(caller: ApiCaller, id: string): Promise<ProductView> {
    const scope = await this.stores.resolve(caller);
    const row = await readOne<ProductRow>(
      this.withColumns(inScope(this.products.createQueryBuilder('p'), 'p', scope)).andWhere('p.id = :id', { id }),
    );
    if (!row) throw ApiError.notFound();
    return toProductView(row);
  }

  private filtered(scope: DataScope, query: ListProductsQuery): SelectQueryBuilder<Product> {
    const qb = inScope(this.products.createQueryBuilder('p'), 'p', scope);
    if (query.activeOnly) qb.andWhere('p.is_active');
    if (query.categoryId !== undefined) qb.andWhere('p.category_id = :categoryId', { categoryId: query.categoryId });
    if (query.sku !== undefined) qb.andWhere('p.sku = :sku', { sku: query.sku });
    if (query.barcode !== undefined) qb.andWhere('p.barcode = :barcode', { barcode: query.barcode });
    if (query.updatedSince !== undefined) {
      qb.andWhere('p.updated_at >= CAST(:updatedSince AS timestamptz)', {
        updatedSince: toPostgresTimestamp(query.updatedSince.ceilMs),
      });
    }
    if (query.q !== undefined) {
      // search_text is lower(name sku barcode brand) joined by spaces; a term has no white space, so
      // it can only match inside one field.
      searchTerms(query.q).forEach((term, i) => {
        qb.andWhere(`p.search_text LIKE ('%' || lower(:term${i}) || '%')`, { [`term${i}`]: escapeLike(term) });
      });
    }
    return qb;
  }

  private withColumns<T extends object>(qb: SelectQueryBuilder<T>): SelectQueryBuilder<T> {
    qb.leftJoin('vat_rates', 'v', 'v.id = p.vat_rate_id').select([]);
    for (const [alias, column] of Object.entries(PRODUCT_COLUMNS)) qb.addSelect(column, alias);
    return qb;
  }
}

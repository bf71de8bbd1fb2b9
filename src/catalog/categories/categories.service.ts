import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { readRows } from '../../database/read-queries.js';
import type { ApiCaller } from '../../auth/api-caller.js';
import { inScope, DataScopeService } from '../../tenancy/data-scope.js';
import { Category } from './category.entity.js';
import { CATEGORY_COLUMNS, type CategoryRow, type CategoryView, toCategoryView } from './category.view.js';
import type { ListCategoriesQuery } from './list-categories.query.js';

@Injectable()
export class CategoriesService {
  constructor(
    @InjectRepository(Category) private readonly categories: Repository<Category>,
    private readonly stores: DataScopeService,
  ) {}

  async list(caller: ApiCaller, query: ListCategoriesQuery): Promise<CategoryView[]> {
    const scope = await this.stores.resolve(caller, query.storeId);
    const qb = inScope(this.categories.createQueryBuilder('c'), 'c', scope).select([]).andWhere('NOT c.is_archived');
    for (const [alias, column] of Object.entries(CATEGORY_COLUMNS)) qb.addSelect(column, alias);
    if (query.activeOnly) qb.andWhere('c.is_active');
    if (query.parentCategoryId !== undefined)
      qb.andWhere('c.parent_category_id = :parent', { parent: query.parentCategoryId });
    // Names compare by lower case, in byte order, so the order is the same on every database.
    if (query.sortBy === 'sortOrder') qb.orderBy('c.sort_order', 'ASC').addOrderBy('lower(c.name) COLLATE "C"', 'ASC');
    else qb.orderBy('lower(c.name) COLLATE "C"', 'ASC');
    qb.addOrderBy('c.id', 'ASC');
    return (await readRows<CategoryRow>(qb)).map(toCategoryView);
  }
}

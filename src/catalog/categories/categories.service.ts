import { Injectable } from '@nestjs/common';
import type { ApiCaller } from '../../auth/api-caller.js';
import type { JsonText } from '../../values/json-text.js';
import { DataScopeService } from '../../tenancy/data-scope.js';
import { CategoriesRepository } from './categories.repository.js';
import type { ListCategoriesQuery } from './list-categories.query.js';

@Injectable()
export class CategoriesService {
  constructor(
    private readonly dataScopes: DataScopeService,
    private readonly categories: CategoriesRepository,
  ) {}

  async list(caller: ApiCaller, query: ListCategoriesQuery): Promise<JsonText> {
    const scope = await this.dataScopes.resolve(caller, query.storeId);
    const rows = await this.categories.list(scope, {
      activeOnly: query.activeOnly,
      parentCategoryId: query.parentCategoryId,
      sortBy: query.sortBy,
    });
    return `[${rows.join(',')}]` as JsonText;
  }
}

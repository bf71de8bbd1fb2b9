import { Injectable } from '@nestjs/common';
import type { ApiCaller } from '../../auth/api-caller.js';
import { ListEngine } from '../../lists/list-engine.js';
import { DataScopeService } from '../../tenancy/data-scope.js';
import type { JsonText } from '../../values/json-text.js';
import { CATEGORY_LIST, type ListCategoriesQuery } from './categories.list.js';

@Injectable()
export class CategoriesService {
  constructor(
    private readonly dataScopes: DataScopeService,
    private readonly lists: ListEngine,
  ) {}

  async list(caller: ApiCaller, query: ListCategoriesQuery): Promise<JsonText> {
    const scope = await this.dataScopes.resolve(caller, query.storeId);
    return `[${(await this.lists.all(CATEGORY_LIST, scope, query)).join(',')}]` as JsonText;
  }
}

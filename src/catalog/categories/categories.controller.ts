import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Caller, type ApiCaller } from '../../auth/api-caller.js';
import type { Response } from 'express';
import { sendJson } from '../../http/send-json.js';
import { V1Operation } from '../../openapi/v1-operation.decorator.js';
import { CategoriesService } from './categories.service.js';
import { CategoryView } from './category.view.js';
import { ListCategoriesQuery } from './categories.list.js';

@ApiTags('Catalog')
@Controller('v1/catalog/categories')
export class CategoriesController {
  constructor(private readonly categories: CategoriesService) {}

  @Get()
  @V1Operation({
    scope: 'catalog.categories.read',
    operationId: 'listCategories',
    summary: 'List categories',
    description:
      'All categories of the stores the key may read (or of `storeId`), not paginated. Archived ' +
      'categories are never returned; inactive ones only with `activeOnly=false`.',
    ok: { type: CategoryView, isArray: true, description: 'The categories, in the order of sortBy.' },
    notFound:
      "storeId names a store that does not exist, belongs to another tenant or is outside the key's stores (one answer for all three).",
  })
  async list(@Caller() caller: ApiCaller, @Query() query: ListCategoriesQuery, @Res() res: Response): Promise<void> {
    sendJson(res, await this.categories.list(caller, query));
  }
}

import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Caller, type ApiCaller } from '../../auth/api-caller.js';
import { ListEngine } from '../../lists/list-engine.js';
import { sendListPage } from '../../lists/page-headers.js';
import { V1ListOperation } from '../../openapi/v1-operation.decorator.js';
import { StorePage } from './store.view.js';
import { ListStoresQuery, STORE_LIST } from './stores.list.js';

@ApiTags('Catalog')
@Controller('v1/catalog/stores')
export class StoresController {
  constructor(private readonly lists: ListEngine) {}

  @Get()
  @V1ListOperation({
    // Every row of every other list already carries its storeId: any read scope may learn the stores.
    scope: 'any',
    operationId: 'listStores',
    summary: 'List the stores the key may read',
    description:
      "The stores the key may read (every store of its tenant, or the key's stores), ordered by id in " +
      'byte order: the ids the other lists give as `storeId` and take as their `storeId` filter.',
    page: { type: StorePage, description: 'One page of stores.' },
  })
  async list(
    @Caller() caller: ApiCaller,
    @Query() query: ListStoresQuery,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    sendListPage(req, res, await this.lists.page(STORE_LIST, caller, query));
  }
}

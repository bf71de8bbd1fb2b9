import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Caller, type ApiCaller } from '../../auth/api-caller.js';
import { ListEngine } from '../../lists/list-engine.js';
import { sendListPage } from '../../lists/page-headers.js';
import { RemovalsQuery } from '../../lists/removals.js';
import { ProductRemovalPage } from './product-removal.view.js';
import { V1ListOperation } from '../../openapi/v1-operation.decorator.js';
import { PRODUCT_LIST } from './products.list.js';

@ApiTags('Catalog')
@Controller('v1/catalog/product-removals')
export class ProductRemovalsController {
  constructor(private readonly lists: ListEngine) {}

  @Get()
  @V1ListOperation({
    scope: 'catalog.products.read',
    operationId: 'listProductRemovals',
    summary: 'List products that left your view',
    description:
      'The removals feed of the product list: every product that left the view of your key (or of ' +
      '`storeId`) since `changedSince` (deleted, moved to a store outside the view, or its store left ' +
      'the view) and is not in it now, once each, ordered by id. A sync round is the changes walk ' +
      '(`/v1/catalog/products?activeOnly=false&changedSince=…`), then this walk from the same position: ' +
      "delete the listed ids from your copy, then keep the changes walk's new `Sync-Position` " +
      '(docs/sync.md).',
    page: { type: ProductRemovalPage, description: 'One page of removed products.' },
  })
  async list(
    @Caller() caller: ApiCaller,
    @Query() query: RemovalsQuery,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    sendListPage(req, res, await this.lists.removals(PRODUCT_LIST, caller, query));
  }
}

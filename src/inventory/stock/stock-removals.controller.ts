import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Caller, type ApiCaller } from '../../auth/api-caller.js';
import { ListEngine } from '../../lists/list-engine.js';
import { sendListPage } from '../../lists/page-headers.js';
import { RemovalsQuery } from '../../lists/removals.js';
import { StockRemovalPage } from './stock-removal.view.js';
import { V1ListOperation } from '../../openapi/v1-operation.decorator.js';
import { STOCK_LIST } from './stock.list.js';

@ApiTags('Inventory')
@Controller('v1/inventory/stock-removals')
export class StockRemovalsController {
  constructor(private readonly lists: ListEngine) {}

  @Get()
  @V1ListOperation({
    scope: 'inventory.stock.read',
    operationId: 'listStockRemovals',
    summary: 'List stock rows that left your view',
    description:
      'The removals feed of the stock list: the stock row of every product that left the view of your ' +
      'key (or of `storeId`) since `changedSince` and is not in it now, once each, ordered by product id. ' +
      'A sync round is the changes walk (`/v1/inventory/stock?activeOnly=false&changedSince=…`), then this ' +
      "walk from the same position: delete the listed rows from your copy, then keep the changes walk's " +
      'new `Sync-Position` (docs/sync.md).',
    page: { type: StockRemovalPage, description: 'One page of removed stock rows.' },
  })
  async list(
    @Caller() caller: ApiCaller,
    @Query() query: RemovalsQuery,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    sendListPage(req, res, await this.lists.removals(STOCK_LIST, caller, query));
  }
}

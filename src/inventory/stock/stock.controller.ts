import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Caller, type ApiCaller } from '../../auth/api-caller.js';
import { V1ListOperation } from '../../openapi/v1-operation.decorator.js';
import { ListEngine } from '../../lists/list-engine.js';
import { sendListPage } from '../../lists/page-headers.js';
import { StockPage } from './stock-row.view.js';
import { ListStockQuery, STOCK_LIST } from './stock.list.js';

@ApiTags('Inventory')
@Controller('v1/inventory/stock')
export class StockController {
  constructor(private readonly lists: ListEngine) {}

  @Get()
  @V1ListOperation({
    scope: 'inventory.stock.read',
    operationId: 'listStock',
    summary: 'List stock levels',
    description:
      'One row per product of the stores the key may read (or of `storeId`), ordered by product ' +
      'id, with exact quantities and a derived availability. A product without a stock record ' +
      'has trackStock false, zero quantities and availability not_tracked. Inactive products are ' +
      'hidden unless `activeOnly=false`.',
    page: { type: StockPage, description: 'One page of stock rows.' },
  })
  async list(
    @Caller() caller: ApiCaller,
    @Query() query: ListStockQuery,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    sendListPage(req, res, await this.lists.page(STOCK_LIST, caller, query));
  }
}

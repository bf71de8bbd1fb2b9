import { Controller, Get, Query } from '@nestjs/common';
import { Caller, type CallerScope } from '../../auth/caller-scope.js';
import { RequireScope } from '../../auth/require-scope.decorator.js';
import type { Page } from '../../shared/pagination/pagination.js';
import { ListStockQuery } from './list-stock.query.js';
import type { StockRowView } from './stock-row.view.js';
import { StockService } from './stock.service.js';

@Controller('v1/inventory/stock')
export class StockController {
  constructor(private readonly stock: StockService) {}

  @Get()
  @RequireScope('inventory.stock.read')
  list(@Caller() caller: CallerScope, @Query() query: ListStockQuery): Promise<Page<StockRowView>> {
    return this.stock.list(caller, query);
  }
}

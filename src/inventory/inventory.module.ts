import { Module } from '@nestjs/common';
import { StockController } from './stock/stock.controller.js';
import { StockRepository } from './stock/stock.repository.js';
import { StockService } from './stock/stock.service.js';

@Module({
  controllers: [StockController],
  providers: [StockService, StockRepository],
})
export class InventoryModule {}

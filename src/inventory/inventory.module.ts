import { Module } from '@nestjs/common';
import { StockRemovalsController } from './stock/stock-removals.controller.js';
import { StockController } from './stock/stock.controller.js';

@Module({ controllers: [StockController, StockRemovalsController] })
export class InventoryModule {}

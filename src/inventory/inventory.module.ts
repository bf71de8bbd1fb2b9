import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Product } from '../catalog/products/product.entity.js';
import { StockController } from './stock/stock.controller.js';
import { StockService } from './stock/stock.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([Product])],
  controllers: [StockController],
  providers: [StockService],
})
export class InventoryModule {}

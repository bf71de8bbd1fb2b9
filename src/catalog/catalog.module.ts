import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CategoriesController } from './categories/categories.controller.js';
import { CategoriesService } from './categories/categories.service.js';
import { Category } from './categories/category.entity.js';
import { Product } from './products/product.entity.js';
import { ProductsController } from './products/products.controller.js';
import { ProductsService } from './products/products.service.js';
import { Promotion } from './promotions/promotion.entity.js';
import { PromotionsController } from './promotions/promotions.controller.js';
import { PromotionsService } from './promotions/promotions.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([Product, Category, Promotion])],
  controllers: [ProductsController, CategoriesController, PromotionsController],
  providers: [ProductsService, CategoriesService, PromotionsService],
})
export class CatalogModule {}

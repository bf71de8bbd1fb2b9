import { Module } from '@nestjs/common';
import { CategoriesController } from './categories/categories.controller.js';
import { CategoriesRepository } from './categories/categories.repository.js';
import { CategoriesService } from './categories/categories.service.js';
import { ProductRemovalsController } from './products/product-removals.controller.js';
import { ProductsController } from './products/products.controller.js';
import { PromotionsController } from './promotions/promotions.controller.js';
import { PromotionsRepository } from './promotions/promotions.repository.js';
import { PromotionsService } from './promotions/promotions.service.js';

@Module({
  controllers: [ProductsController, ProductRemovalsController, CategoriesController, PromotionsController],
  providers: [CategoriesService, CategoriesRepository, PromotionsService, PromotionsRepository],
})
export class CatalogModule {}

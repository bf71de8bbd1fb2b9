import { Module } from '@nestjs/common';
import { CategoriesController } from './categories/categories.controller.js';
import { CategoriesService } from './categories/categories.service.js';
import { ProductRemovalsController } from './products/product-removals.controller.js';
import { ProductsController } from './products/products.controller.js';
import { PromotionsController } from './promotions/promotions.controller.js';
import { PromotionsService } from './promotions/promotions.service.js';
import { StoresController } from './stores/stores.controller.js';

@Module({
  controllers: [
    ProductsController,
    ProductRemovalsController,
    CategoriesController,
    PromotionsController,
    StoresController,
  ],
  providers: [CategoriesService, PromotionsService],
})
export class CatalogModule {}

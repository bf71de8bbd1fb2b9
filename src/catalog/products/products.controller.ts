import { Controller, Get, Param, Query } from '@nestjs/common';
import { Caller, type CallerScope } from '../../auth/caller-scope.js';
import { RequireScope } from '../../auth/require-scope.decorator.js';
import type { Page } from '../../shared/pagination/pagination.js';
import { ListProductsQuery, ProductIdParams } from './list-products.query.js';
import type { ProductView } from './product.view.js';
import { ProductsService } from './products.service.js';

@Controller('v1/catalog/products')
export class ProductsController {
  constructor(private readonly products: ProductsService) {}

  @Get()
  @RequireScope('catalog.products.read')
  list(@Caller() caller: CallerScope, @Query() query: ListProductsQuery): Promise<Page<ProductView>> {
    return this.products.list(caller, query);
  }

  @Get(':id')
  @RequireScope('catalog.products.read')
  get(@Caller() caller: CallerScope, @Param() params: ProductIdParams): Promise<ProductView> {
    return this.products.get(caller, params.id);
  }
}

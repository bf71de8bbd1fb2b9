import { Controller, Get, Query } from '@nestjs/common';
import { Caller, type CallerScope } from '../../auth/caller-scope.js';
import { RequireScope } from '../../auth/require-scope.decorator.js';
import { CategoriesService } from './categories.service.js';
import type { CategoryView } from './category.view.js';
import { ListCategoriesQuery } from './list-categories.query.js';

@Controller('v1/catalog/categories')
export class CategoriesController {
  constructor(private readonly categories: CategoriesService) {}

  @Get()
  @RequireScope('catalog.categories.read')
  list(@Caller() caller: CallerScope, @Query() query: ListCategoriesQuery): Promise<CategoryView[]> {
    return this.categories.list(caller, query);
  }
}

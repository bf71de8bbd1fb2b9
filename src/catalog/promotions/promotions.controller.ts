import { Controller, Get, Query } from '@nestjs/common';
import { Caller, type CallerScope } from '../../auth/caller-scope.js';
import { RequireScope } from '../../auth/require-scope.decorator.js';
import { ListPromotionsQuery } from './list-promotions.query.js';
import type { PromotionView } from './promotion.view.js';
import { PromotionsService } from './promotions.service.js';

@Controller('v1/catalog/promotions')
export class PromotionsController {
  constructor(private readonly promotions: PromotionsService) {}

  @Get()
  @RequireScope('catalog.promotions.read')
  list(@Caller() caller: CallerScope, @Query() query: ListPromotionsQuery): Promise<PromotionView[]> {
    return this.promotions.list(caller, query);
  }
}

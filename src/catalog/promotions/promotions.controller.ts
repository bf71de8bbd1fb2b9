import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Caller, type ApiCaller } from '../../auth/api-caller.js';
import { sendJson } from '../../http/send-json.js';
import { V1Operation } from '../../openapi/v1-operation.decorator.js';
import type { JsonText } from '../../values/json-text.js';
import { ListPromotionsQuery } from './list-promotions.query.js';
import { PromotionView } from './promotion.view.js';
import { PromotionsService } from './promotions.service.js';

@ApiTags('Catalog')
@Controller('v1/catalog/promotions')
export class PromotionsController {
  constructor(private readonly promotions: PromotionsService) {}

  @Get()
  @V1Operation({
    scope: 'catalog.promotions.read',
    operationId: 'listPromotions',
    summary: 'List customer-facing promotions',
    description:
      'Customer-facing promotions (PERCENT_OFF, AMOUNT_OFF, FIXED_PRICE, MULTI_BUY, BUY_X_GET_Y, ' +
      'BUNDLE, SPEND_AND_SAVE; never coupons, staff or manual discounts, system presets, DRAFT ' +
      'or ARCHIVED), ordered by id, not paginated. Each carries plain-English descriptions of ' +
      'who qualifies and of the discount; the internal rules are never returned.',
    ok: { type: PromotionView, isArray: true, description: 'The promotions.' },
    notFound:
      "storeId names a store that does not exist, belongs to another tenant or is outside the key's stores (one answer for all three).",
  })
  async list(@Caller() caller: ApiCaller, @Query() query: ListPromotionsQuery, @Res() res: Response): Promise<void> {
    // Built in TypeScript (the descriptions), written as res.json would write it, and sent like every answer.
    sendJson(res, JSON.stringify(await this.promotions.list(caller, query)) as JsonText);
  }
}

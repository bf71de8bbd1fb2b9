import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import { ApiParam, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Caller, type ApiCaller } from '../../auth/api-caller.js';
import { V1ListOperation, V1Operation } from '../../openapi/v1-operation.decorator.js';
import { sendJson } from '../../http/send-json.js';
import { ListEngine } from '../../lists/list-engine.js';
import { sendListPage } from '../../lists/page-headers.js';
import { PathAndQuery } from '../../params/params-validation.pipe.js';
import { ProductPage, ProductView } from './product.view.js';
import { ListProductsQuery, NoQueryParams, PRODUCT_ID_PARAM, PRODUCT_LIST, ProductIdParams } from './products.list.js';

@ApiTags('Catalog')
@Controller('v1/catalog/products')
export class ProductsController {
  constructor(private readonly lists: ListEngine) {}

  @Get()
  @V1ListOperation({
    scope: 'catalog.products.read',
    operationId: 'listProducts',
    summary: 'List products',
    description:
      'Products of every store the key may read (or of `storeId`), ordered by id in byte order, ' +
      'with exact `total` and `totalPages`. Inactive products are hidden unless ' +
      '`activeOnly=false`.',
    page: { type: ProductPage, description: 'One page of products.' },
  })
  async list(
    @Caller() caller: ApiCaller,
    @Query() query: ListProductsQuery,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    sendListPage(req, res, await this.lists.page(PRODUCT_LIST, caller, query));
  }

  @Get(':id')
  @V1Operation({
    scope: 'catalog.products.read',
    operationId: 'getProduct',
    summary: 'Get one product',
    description: 'One product by id, active or not.',
    ok: { type: ProductView, description: 'The product.' },
    notFound:
      "no such product, or it belongs to another tenant or to a store outside the key's stores (one answer for all).",
  })
  @ApiParam({ name: 'id', ...PRODUCT_ID_PARAM })
  // The query is validated only to refuse parameters: this operation has none.
  async get(
    @Caller() caller: ApiCaller,
    @PathAndQuery({ path: ProductIdParams, query: NoQueryParams }) params: ProductIdParams,
    @Res() res: Response,
  ): Promise<void> {
    sendJson(res, await this.lists.one(PRODUCT_LIST, caller, params.id));
  }
}

import { Controller, Get, Header, Inject } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { PublicRoute } from '../auth/require-scope.decorator.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { DOCUMENT_PATH } from '../openapi/description.js';

/** Where things are, for whoever opens the server's root in a browser or with curl. */
export interface ServiceIndex {
  name: string;
  api: string;
  /** null where DOCS_ENABLED=false. */
  docs: string | null;
  openapi: string | null;
  health: { live: string; ready: string };
}

/**
 * `/` and `/v1`: a small JSON document pointing at the documentation, the OpenAPI document and the
 * health endpoints, instead of a bare 404. Without a key (like the probes): it says nothing a
 * deployment does not already publish; not an operation of the API, so not in the OpenAPI document.
 */
@ApiExcludeController()
@PublicRoute()
@Controller()
export class IndexController {
  private readonly index: ServiceIndex;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.index = {
      name: 'Catalog and Inventory Read API',
      api: '/v1',
      docs: config.docsEnabled ? '/docs' : null,
      openapi: config.docsEnabled ? DOCUMENT_PATH : null,
      health: { live: '/health/live', ready: '/health/ready' },
    };
  }

  @Get()
  @Header('Cache-Control', 'no-store')
  root(): ServiceIndex {
    return this.index;
  }

  @Get('v1')
  @Header('Cache-Control', 'no-store')
  v1(): ServiceIndex {
    return this.index;
  }
}

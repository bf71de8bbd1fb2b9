import { Injectable } from '@nestjs/common';
import type { ApiCaller } from '../../auth/api-caller.js';
import { type DataScope, DataScopeService } from '../../tenancy/data-scope.js';
import type { ListPromotionsQuery } from './list-promotions.query.js';
import type { DescriptionContext } from './promotion-descriptions.js';
import { isCustomerFacingType } from './promotion-rules.js';
import { type PromotionView, toPromotionView } from './promotion.view.js';
import { type PromotionRow, PromotionsRepository } from './promotions.repository.js';

@Injectable()
export class PromotionsService {
  constructor(
    private readonly dataScopes: DataScopeService,
    private readonly promotions: PromotionsRepository,
  ) {}

  async list(caller: ApiCaller, query: ListPromotionsQuery, now = new Date()): Promise<PromotionView[]> {
    const scope = await this.dataScopes.resolve(caller, query.storeId);
    if (query.type !== undefined && !isCustomerFacingType(query.type)) return [];
    // activeAt wins over activeOnly; activeOnly=true (the default) means "active now".
    const activeAt =
      query.activeAt ?? (query.activeOnly ? { floorMs: now.getTime(), ceilMs: now.getTime() } : undefined);
    const rows = await this.promotions.list(scope, { type: query.type, activeAt });
    // Names come from every store the key may read, not only the filtered one: a promotion reads the
    // same with and without storeId.
    const ctx = await this.descriptionContext(await this.dataScopes.resolve(caller), rows);
    return rows.map((row) => toPromotionView(row, now, ctx));
  }

  /** Names for the descriptions: only products and categories the caller may see. */
  private async descriptionContext(scope: DataScope, rows: PromotionRow[]): Promise<DescriptionContext> {
    const products = new Set<string>();
    const categories = new Set<string>();
    for (const row of rows) {
      for (const c of row.conditions) {
        if (c.kind === 'product_quantity') c.productIds.forEach((id) => products.add(id));
        if (c.kind === 'category_quantity') c.categoryIds.forEach((id) => categories.add(id));
      }
    }
    const names =
      products.size === 0 && categories.size === 0
        ? { products: new Map<string, string>(), categories: new Map<string, string>() }
        : await this.promotions.names(scope, { products: [...products], categories: [...categories] });
    return { currency: rows[0]?.currency ?? '', productNames: names.products, categoryNames: names.categories };
  }
}

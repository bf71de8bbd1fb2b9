import { Injectable } from '@nestjs/common';
import type { ApiCaller } from '../../auth/api-caller.js';
import { type DataScope, DataScopeService } from '../../tenancy/data-scope.js';
import type { ListPromotionsQuery } from './list-promotions.query.js';
import type { DescriptionContext } from './promotion-descriptions.js';
import { isCustomerFacingType } from './promotion-rules.js';
import { type PromotionView, toPromotionView } from './promotion.view.js';
import { ListEngine } from '../../lists/list-engine.js';
import { CATEGORY_NAMES, PRODUCT_NAMES, PROMOTION_LIST, type PromotionRow } from './promotions.list.js';

@Injectable()
export class PromotionsService {
  constructor(
    private readonly dataScopes: DataScopeService,
    private readonly lists: ListEngine,
  ) {}

  async list(caller: ApiCaller, query: ListPromotionsQuery, now = new Date()): Promise<PromotionView[]> {
    const scope = await this.dataScopes.resolve(caller, query.storeId);
    if (query.type !== undefined && !isCustomerFacingType(query.type)) return [];
    // activeAt wins over activeOnly; activeOnly=true (the default) means "active now".
    const activeAt =
      query.activeAt ?? (query.activeOnly ? { floorMs: now.getTime(), ceilMs: now.getTime() } : undefined);
    const rows = (await this.lists.all(PROMOTION_LIST, scope, { type: query.type, activeAt })).map(
      (json) => JSON.parse(json) as PromotionRow,
    );
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
    // Names of products and categories in scope among the ids (others are simply absent).
    const names = async (list: typeof PRODUCT_NAMES, ids: Set<string>): Promise<Map<string, string>> => {
      if (ids.size === 0) return new Map();
      const found = await this.lists.all(list, scope, { ids: [...ids] });
      return new Map(found.map((json) => JSON.parse(json) as { id: string; name: string }).map((r) => [r.id, r.name]));
    };
    return {
      currency: rows[0]?.currency ?? '',
      productNames: await names(PRODUCT_NAMES, products),
      categoryNames: await names(CATEGORY_NAMES, categories),
    };
  }
}

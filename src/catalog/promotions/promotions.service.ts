import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { ObjectLiteral, Repository } from 'typeorm';
import { readRows } from '../../database/read-queries.js';
import type { ApiCaller } from '../../auth/api-caller.js';
import { toPostgresTimestamp } from '../../values/formats.js';
import { inScope, type DataScope, DataScopeService } from '../../tenancy/data-scope.js';
import { Category } from '../categories/category.entity.js';
import { Product } from '../products/product.entity.js';
import type { DescriptionContext } from './promotion-descriptions.js';
import { Promotion } from './promotion.entity.js';
import {
  CUSTOMER_FACING_TYPES,
  PROMOTION_COLUMNS,
  type PromotionRow,
  type PromotionView,
  RETURNABLE_STATUSES,
  toPromotionView,
} from './promotion.view.js';
import type { ListPromotionsQuery } from './list-promotions.query.js';

@Injectable()
export class PromotionsService {
  constructor(
    @InjectRepository(Promotion) private readonly promotions: Repository<Promotion>,
    @InjectRepository(Product) private readonly products: Repository<Product>,
    @InjectRepository(Category) private readonly categories: Repository<Category>,
    private readonly stores: DataScopeService,
  ) {}

  async list(caller: ApiCaller, query: ListPromotionsQuery, now = new Date()): Promise<PromotionView[]> {
    const scope = await this.stores.resolve(caller, query.storeId);
    if (query.type !== undefined && !(CUSTOMER_FACING_TYPES as readonly string[]).includes(query.type)) return [];

    const qb = inScope(this.promotions.createQueryBuilder('pr'), 'pr', scope)
      .select([])
      .andWhere('pr.type = ANY(:types)', { types: [...CUSTOMER_FACING_TYPES] })
      .andWhere('NOT pr.is_system_preset')
      .andWhere('pr.status = ANY(:statuses)', { statuses: [...RETURNABLE_STATUSES] });
    for (const [alias, column] of Object.entries(PROMOTION_COLUMNS)) qb.addSelect(column, alias);
    // The tenant's currency, for the descriptions, in the same round trip.
    qb.innerJoin('tenants', 't', 't.id = pr.tenant_id').addSelect('t.currency', 'currency');
    if (query.type !== undefined) qb.andWhere('pr.type = :type', { type: query.type });
    // activeAt wins over activeOnly; activeOnly=true (the default) means "active now".
    const nowMs = now.getTime();
    const instant = query.activeAt ?? (query.activeOnly ? { floorMs: nowMs, ceilMs: nowMs } : undefined);
    if (instant !== undefined) {
      qb.andWhere(`pr.status = 'ACTIVE'`)
        .andWhere('(pr.starts_at IS NULL OR pr.starts_at <= CAST(:instantFloor AS timestamptz))', {
          instantFloor: toPostgresTimestamp(instant.floorMs),
        })
        .andWhere('(pr.ends_at IS NULL OR CAST(:instantCeil AS timestamptz) <= pr.ends_at)', {
          instantCeil: toPostgresTimestamp(instant.ceilMs),
        });
    }
    const rows = await readRows<PromotionRow & { currency: string }>(qb.orderBy('pr.id', 'ASC'));
    // Names come from every store the key may read, not only the filtered one: a promotion reads the
    // same with and without storeId.
    const ctx = await this.descriptionContext(await this.stores.resolve(caller), rows);
    return rows.map((row) => toPromotionView(row, now, ctx));
  }

  /** Names for the descriptions: only products and categories the caller may see; the currency came with the rows. */
  private async descriptionContext(
    scope: DataScope,
    rows: (PromotionRow & { currency: string })[],
  ): Promise<DescriptionContext> {
    const productIds = new Set<string>();
    const categoryIds = new Set<string>();
    for (const row of rows) {
      for (const c of row.conditions) {
        if (c.kind === 'product_quantity') c.productIds.forEach((id) => productIds.add(id));
        if (c.kind === 'category_quantity') c.categoryIds.forEach((id) => categoryIds.add(id));
      }
    }
    const names = async <T extends ObjectLiteral>(
      repo: Repository<T>,
      alias: string,
      ids: Set<string>,
    ): Promise<Map<string, string>> => {
      if (ids.size === 0) return new Map();
      const found = await readRows<{ id: string; name: string }>(
        inScope(repo.createQueryBuilder(alias), alias, scope)
          .select(`${alias}.id`, 'id')
          .addSelect(`${alias}.name`, 'name')
          .andWhere(`${alias}.id = ANY(:ids)`, { ids: [...ids] }),
      );
      return new Map(found.map((r) => [r.id, r.name]));
    };
    const [productNames, categoryNames] = await Promise.all([
      names(this.products, 'p', productIds),
      names(this.categories, 'c', categoryIds),
    ]);
    return { currency: rows[0]?.currency ?? '', productNames, categoryNames };
  }
}

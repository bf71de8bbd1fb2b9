import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import type { ApiCaller } from '../auth/api-caller.js';
import { ApiError } from '../http/api-error.js';

declare const resolved: unique symbol;

/**
 * The rows a request may see: one tenant and either every store of it (null) or a list of stores.
 * Only DataScopeService.resolve makes one, so a query cannot be scoped without the checks.
 */
export interface DataScope {
  readonly tenantId: string;
  readonly storeIds: readonly string[] | null;
  readonly [resolved]: true;
}

@Injectable()
export class DataScopeService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The caller's scope, narrowed to `storeId` when one is asked for. A store that does not exist,
   * belongs to another tenant or is outside the key's stores is the same 404.
   */
  async resolve(caller: ApiCaller, storeId?: string): Promise<DataScope> {
    if (storeId === undefined)
      return { tenantId: caller.tenantId, storeIds: caller.allowedStoreIds } as unknown as DataScope;
    if (caller.allowedStoreIds !== null && !caller.allowedStoreIds.includes(storeId)) throw ApiError.notFound();
    const found: unknown[] = await this.dataSource.query('SELECT 1 FROM stores WHERE id = $1 AND tenant_id = $2', [
      storeId,
      caller.tenantId,
    ]);
    if (found.length === 0) throw ApiError.notFound();
    return { tenantId: caller.tenantId, storeIds: [storeId] } as unknown as DataScope;
  }
}

/**
 * Restricts a query on a tenant-owned table (one with `tenant_id` and `store_id`) to the scope.
 * Every /v1 query goes through here.
 */
export function inScope<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  alias: string,
  scope: DataScope,
): SelectQueryBuilder<T> {
  qb.andWhere(`${alias}.tenant_id = :scopeTenantId`, { scopeTenantId: scope.tenantId });
  if (scope.storeIds !== null) {
    if (scope.storeIds.length === 1)
      qb.andWhere(`${alias}.store_id = :scopeStoreId`, { scopeStoreId: scope.storeIds[0] });
    else qb.andWhere(`${alias}.store_id = ANY(:scopeStoreIds)`, { scopeStoreIds: [...scope.storeIds] });
  }
  return qb;
}

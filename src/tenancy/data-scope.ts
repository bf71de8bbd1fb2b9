import { Injectable } from '@nestjs/common';
import type { ApiCaller } from '../auth/api-caller.js';
import type { StatementBuilder } from '../database/statement.js';
import { ApiError } from '../http/api-error.js';
import { StoresRepository } from './stores.repository.js';

declare const resolved: unique symbol;

/**
 * The rows a request may see: one tenant and either every store of it (null) or a list of stores,
 * and until when the request may wait for the database. Only DataScopeService.resolve makes one, and
 * every repository method over tenant rows takes one: a query cannot be written without it.
 */
export interface DataScope {
  readonly tenantId: string;
  readonly storeIds: readonly string[] | null;
  /** Epoch milliseconds: the request's deadline for every database wait. */
  readonly deadlineMs: number;
  readonly [resolved]: true;
}

@Injectable()
export class DataScopeService {
  constructor(private readonly stores: StoresRepository) {}

  /**
   * The caller's scope, narrowed to `storeId` when one is asked for. A store that does not exist,
   * belongs to another tenant or is outside the key's stores is the same 404.
   */
  async resolve(caller: ApiCaller, storeId?: string): Promise<DataScope> {
    const scope = { tenantId: caller.tenantId, storeIds: caller.allowedStoreIds, deadlineMs: caller.deadlineMs };
    if (storeId === undefined) return scope as unknown as DataScope;
    if (caller.allowedStoreIds !== null && !caller.allowedStoreIds.includes(storeId)) throw ApiError.notFound();
    if (!(await this.stores.exists(caller.tenantId, storeId, caller.deadlineMs))) throw ApiError.notFound();
    return { ...scope, storeIds: [storeId] } as unknown as DataScope;
  }
}

/** What a statement's text depends on in a scope: every store, one store, or a list of stores. */
export function scopeShape(scope: DataScope): 'all' | 'one' | 'list' {
  return scope.storeIds === null ? 'all' : scope.storeIds.length === 1 ? 'one' : 'list';
}

/**
 * The tenant boundary of a statement: its first parameters are the scope's tenant ($1) and stores
 * ($2, when the scope names stores), and `on(alias)` is the condition for a table with `tenant_id`
 * and `store_id`. Call it first, before any other parameter (ScopedReader checks that $1 is the tenant).
 */
export function scopeCondition<I extends { readonly scope: DataScope }>(
  sql: StatementBuilder<I>,
  scope: DataScope,
): { on(alias: string): string } {
  const tenant = sql.param((input) => input.scope.tenantId);
  const shape = scopeShape(scope);
  const stores =
    shape === 'all'
      ? null
      : shape === 'one'
        ? sql.param((input) => input.scope.storeIds![0])
        : sql.param((input) => input.scope.storeIds);
  return {
    on: (alias) =>
      `${alias}.tenant_id = ${tenant}` +
      (stores === null
        ? ''
        : shape === 'one'
          ? ` AND ${alias}.store_id = ${stores}`
          : ` AND ${alias}.store_id = ANY(${stores})`),
  };
}

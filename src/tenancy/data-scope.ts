import { Injectable } from '@nestjs/common';
import type { ApiCaller } from '../auth/api-caller.js';
import { type Statement, StatementBuilder } from '../database/statement.js';
import { ApiError } from '../http/api-error.js';
import { tenantTables } from '../schema/tenant-tables.js';
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
  /** The API client whose view it is (what it may see changes with its allow-list). */
  readonly clientId: string;
  /** Epoch milliseconds: the request's deadline for every database wait. */
  readonly deadlineMs: number;
  readonly [resolved]: true;
}

/** A sync walk's scope, read fresh, with the snapshot it was read in. */
export interface SyncScope {
  readonly scope: DataScope;
  /** The oldest transaction the view's snapshot could not see: a position must not be later. */
  readonly horizon: string;
  /** The first transaction id not handed out yet: a later position was never handed out here. */
  readonly next: string;
}

/** What a page of a sync walk reads of its client first, fresh: what its positions are bound to, and its scope. */
export interface SyncView {
  /** The client's creation (api_clients.created_xact), read now: '0' for a client made before it was kept. */
  readonly clientCreated: string;
  /** The walk's scope; the 404 of a store outside the view (thrown after the request's 400s). */
  scope(): SyncScope;
}

@Injectable()
export class DataScopeService {
  constructor(private readonly stores: StoresRepository) {}

  /**
   * The caller's scope, narrowed to `storeId` when one is asked for. A store that does not exist,
   * belongs to another tenant or is outside the key's stores is the same 404.
   */
  async resolve(caller: ApiCaller, storeId?: string): Promise<DataScope> {
    if (storeId !== undefined) {
      if (caller.allowedStoreIds !== null && !caller.allowedStoreIds.includes(storeId)) throw ApiError.notFound();
      if (!(await this.stores.exists(caller.tenantId, storeId, caller.clientId, caller.deadlineMs)))
        throw ApiError.notFound();
    }
    return scopeOf(caller, caller.allowedStoreIds, storeId);
  }

  /**
   * The scope of a page of a sync walk, from the client's allow-list as it is now (a key's cached
   * allow-list may be seconds old), with the snapshot it was read in: a store that came into the view
   * after that snapshot has a grant at or after its horizon, which the next round brings. Its
   * creation is read now too (not from the key cache): a position is bound to it.
   */
  async viewForSync(caller: ApiCaller, storeId?: string): Promise<SyncView> {
    const view = await this.stores.view(caller.tenantId, caller.clientId, storeId ?? null, caller.deadlineMs);
    return {
      clientCreated: view.clientCreated,
      scope: () => {
        if (storeId !== undefined) {
          const allowed = view.allowedStoreIds === null || view.allowedStoreIds.includes(storeId);
          if (!allowed || !view.storeExists) throw ApiError.notFound();
        }
        return { scope: scopeOf(caller, view.allowedStoreIds, storeId), horizon: view.horizon, next: view.next };
      },
    };
  }
}

/**
 * A scope narrowed to what the client may see in a given snapshot (its allow-list there: null for
 * every store; `exists` false when the client is not there at all). Only ever fewer stores: a store
 * the snapshot grants but the scope does not stays out.
 */
export function narrowScope(scope: DataScope, allowed: readonly string[] | null, exists: boolean): DataScope {
  if (exists && allowed === null) return scope;
  const stores = !exists ? [] : scope.storeIds === null ? allowed! : scope.storeIds.filter((s) => allowed!.includes(s));
  if (scope.storeIds !== null && stores.length === scope.storeIds.length) return scope;
  return { ...scope, storeIds: stores };
}

function scopeOf(caller: ApiCaller, allowed: readonly string[] | null, storeId: string | undefined): DataScope {
  const scope = {
    tenantId: caller.tenantId,
    storeIds: storeId === undefined ? allowed : [storeId],
    clientId: caller.clientId,
    deadlineMs: caller.deadlineMs,
  };
  return scope as unknown as DataScope;
}

/** What a statement's text depends on in a scope: every store, one store, or a list of stores. */
export function scopeShape(scope: DataScope): 'all' | 'one' | 'list' {
  return scope.storeIds === null ? 'all' : scope.storeIds.length === 1 ? 'one' : 'list';
}

/** The scope's conditions of one statement, for each table it reads. */
export interface ScopeCondition {
  on(table: string, alias: string): string;
}

/**
 * The tenant boundary of a statement: its first parameters are the scope's tenant ($1) and stores
 * ($2, when the scope names stores and `stores` is not false), and `on(table, alias)` is the
 * condition for a table with `tenant_id` (and its store column, as its @TenantRows declares). Call it
 * first, before any other parameter (ScopedReader checks that $1 is the tenant). `storesRead` says
 * whether a condition read $2: a statement whose tables have no store column must not bind it (see
 * scoped).
 */
export function scopeCondition<I extends { readonly scope: DataScope }>(
  sql: StatementBuilder<I>,
  scope: DataScope,
  stores = true,
): ScopeCondition & { readonly storesRead: boolean } {
  const tenant = sql.param((input) => input.scope.tenantId);
  const shape = scopeShape(scope);
  const bound =
    shape === 'all' || !stores
      ? null
      : shape === 'one'
        ? sql.param((input) => input.scope.storeIds![0])
        : sql.param((input) => input.scope.storeIds);
  let storesRead = false;
  return {
    get storesRead() {
      return storesRead;
    },
    on: (table, alias) => {
      const columns = tenantTables().get(table);
      if (columns === undefined) throw new Error(`${table} holds no tenant rows: it has no scope condition`);
      const tenantCondition = `${alias}.tenant_id = ${tenant}`;
      if (shape === 'all' || columns.store === null) return tenantCondition;
      // Written without the stores, a statement that reads a table of a store's rows would read every store's.
      if (bound === null) throw new Error(`${table} has a store column: its statement must bind the stores`);
      storesRead = true;
      const store = `${alias}.${columns.store}`;
      return shape === 'one'
        ? `${tenantCondition} AND ${store} = ${bound}`
        : `${tenantCondition} AND ${store} = ANY(${bound})`;
    },
  };
}

/**
 * A statement writer bound to the scope: `write` gets the scope's conditions with the builder. In a
 * scope of stores, a statement none of whose tables has a store column (rows of the whole tenant, as
 * VAT rates) is written again without $2: a store limit does not narrow rows that belong to no store,
 * and PostgreSQL refuses a bound parameter the text does not read (a 500). `write` writes text only,
 * so writing it twice is safe.
 */
export function scoped<I extends { readonly scope: DataScope }>(
  write: (input: I, sql: StatementBuilder<I>, scope: ScopeCondition) => Statement<I>,
): (input: I, sql: StatementBuilder<I>) => Statement<I> {
  return (input, sql) => {
    const scope = scopeCondition(sql, input.scope);
    const statement = write(input, sql, scope);
    if (scopeShape(input.scope) === 'all' || scope.storesRead) return statement;
    const again = new StatementBuilder<I>();
    return write(input, again, scopeCondition(again, input.scope, false));
  };
}

import { getMetadataArgsStorage } from 'typeorm';
import { ENTITIES } from './index.js';
import { declaredTenantRows, type TenantColumns } from './tenant-rows.js';

export type { StoreColumn, TenantColumns } from './tenant-rows.js';
export { TenantRows } from './tenant-rows.js';

let tables: ReadonlyMap<string, TenantColumns> | undefined;

/**
 * The tables that hold a tenant's rows, by table name, from the entities' declarations. An entity
 * with `tenant_id` and no @TenantRows, a declaration on an entity without `tenant_id`, or a store
 * column the entity does not have is an error: the boundary never depends on a guess.
 */
export function tenantTablesOf(entities: readonly (new () => unknown)[]): ReadonlyMap<string, TenantColumns> {
  const storage = getMetadataArgsStorage();
  const found = new Map<string, TenantColumns>();
  for (const entity of entities) {
    const table = storage.tables.find((t) => t.target === entity)?.name;
    if (table === undefined) continue;
    const columns = new Set(
      storage.columns.filter((c) => c.target === entity).map((c) => c.options.name ?? c.propertyName),
    );
    const declared = declaredTenantRows(entity);
    if (!columns.has('tenant_id')) {
      if (declared !== undefined) throw new Error(`${table}: @TenantRows on a table without tenant_id`);
      continue;
    }
    if (declared === undefined) {
      throw new Error(`${table} has tenant_id but no @TenantRows declaration: say which column names its store`);
    }
    if (declared.store !== null && !columns.has(declared.store)) {
      throw new Error(`${table}: @TenantRows names store column ${declared.store}, which it does not have`);
    }
    found.set(table, declared);
  }
  return found;
}

/** The tenant tables of the schema (ENTITIES), read once. */
export function tenantTables(): ReadonlyMap<string, TenantColumns> {
  tables ??= tenantTablesOf(ENTITIES);
  return tables;
}

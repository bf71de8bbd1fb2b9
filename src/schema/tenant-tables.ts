import { getMetadataArgsStorage } from 'typeorm';
import { ENTITIES } from './index.js';

/** How a table's rows belong to a tenant: a `tenant_id`, and a `store_id` when they belong to a store. */
export interface TenantColumns {
  readonly store: boolean;
}

let tables: ReadonlyMap<string, TenantColumns> | undefined;

/**
 * The tables that hold a tenant's rows, read off the entities: whoever writes or checks a scope
 * condition asks here, so that a new table with `tenant_id` (and `store_id`) is scoped without a list
 * to keep.
 */
export function tenantTables(): ReadonlyMap<string, TenantColumns> {
  if (tables === undefined) {
    const storage = getMetadataArgsStorage();
    const found = new Map<string, TenantColumns>();
    for (const entity of ENTITIES) {
      const table = storage.tables.find((t) => t.target === entity)?.name;
      const columns = storage.columns.filter((c) => c.target === entity).map((c) => c.options.name ?? c.propertyName);
      if (table !== undefined && columns.includes('tenant_id'))
        found.set(table, { store: columns.includes('store_id') });
    }
    tables = found;
  }
  return tables;
}

// No import of the entities here: they import this file (tenant-tables.ts reads them).

/**
 * The column that names a row's store: `store_id` on a store's rows, `id` on the stores themselves,
 * null on a row of the whole tenant (a VAT rate, a supplier).
 */
export type StoreColumn = 'store_id' | 'id' | null;

/** How a table's rows belong to a tenant: its `tenant_id`, and the column that names their store. */
export interface TenantColumns {
  readonly store: StoreColumn;
}

const declarations = new Map<object, TenantColumns>();

/** The declaration of an entity class (tenant-tables.ts checks them). */
export const declaredTenantRows = (entity: object): TenantColumns | undefined => declarations.get(entity);

/**
 * Declares that an entity's table holds a tenant's rows (it has `tenant_id`) and which of its columns
 * names their store. The statement writer (scopeCondition), the run-time parse-tree check
 * (ScopedReader) and the sync inputs read the store boundary from here, never from a column's name.
 */
export const TenantRows =
  (columns: TenantColumns): ClassDecorator =>
  (target) => {
    declarations.set(target, columns);
  };

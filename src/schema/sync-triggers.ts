/**
 * The service's triggers and the tables the synced lists read, declared once: the FailSafeSync
 * migration sets each trigger's firing mode from here, the sync guard (sync-state.ts) refuses every
 * position while one of them is missing or fires in another mode, and the migrations test compares
 * this list with the database (a trigger added without a declaration fails it).
 *
 * Modes are PostgreSQL's `pg_trigger.tgenabled`: `A` fires ALWAYS (whatever session_replication_role
 * says, so also in a logical-replication apply worker and under `SET session_replication_role =
 * replica`); `O` fires in origin and local sessions only; `R` in replica sessions only. The per-row
 * count trigger `R` stands in for the per-statement ones `O` where statement triggers do not fire (a
 * logical-replication apply worker fires row triggers only), so each write is counted exactly once.
 */
export type TriggerMode = 'A' | 'O' | 'R';

export interface DeclaredTrigger {
  readonly table: SyncTable | 'api_keys';
  readonly name: string;
  readonly mode: TriggerMode;
}

/**
 * Every table a synced list reads (its rows, its parents, the client's view of stores): a TRUNCATE of
 * any of them voids older positions, and a change of their columns or triggers outside the service's
 * migrations does too (see SYNC_GUARD_SQL).
 */
export const SYNC_TABLES = [
  'products',
  'stock_levels',
  'vat_rates',
  'stores',
  'api_clients',
  'api_client_store_grants',
  'sync_removals',
  'client_removals',
] as const;
export type SyncTable = (typeof SYNC_TABLES)[number];

/**
 * Tables only the service's triggers write: a database fed by logical replication keeps them itself
 * (its triggers fire ALWAYS), so a publication must not carry them (docs/sync.md#every-write-path).
 */
export const SERVICE_OWN_TABLES = [
  'product_counts',
  'api_client_store_grants',
  'sync_state',
  'sync_server_starts',
  'sync_removals',
  'client_removals',
] as const;

const always = (table: DeclaredTrigger['table'], ...names: string[]): DeclaredTrigger[] =>
  names.map((name) => ({ table, name, mode: 'A' }));

export const TRIGGERS: readonly DeclaredTrigger[] = [
  ...always(
    'products',
    'products_mark_change',
    'products_share_active_with_stock',
    'product_counts_truncate',
    'products_truncate_voids_positions',
  ),
  { table: 'products', name: 'product_counts_insert', mode: 'O' },
  { table: 'products', name: 'product_counts_update', mode: 'O' },
  { table: 'products', name: 'product_counts_delete', mode: 'O' },
  { table: 'products', name: 'product_counts_row', mode: 'R' },
  // Removals (the Removals migration): per statement, and per row where statements fire no trigger.
  { table: 'products', name: 'products_record_deleted', mode: 'O' },
  { table: 'products', name: 'products_record_deleted_row', mode: 'R' },
  ...always('products', 'products_record_moved'),
  ...always('stores', 'stores_removed_from_views'),
  ...always('api_clients', 'api_clients_view_narrowed'),
  ...always('sync_removals', 'sync_removals_truncate_voids_positions'),
  ...always('client_removals', 'client_removals_truncate_voids_positions'),
  ...always(
    'stock_levels',
    'stock_levels_mark_change',
    'stock_levels_mirror_threshold',
    'stock_levels_copy_product_active',
    'stock_levels_deleted_mark_product',
    'stock_levels_repointed_mark_product',
    'stock_levels_truncate_voids_positions',
  ),
  ...always('vat_rates', 'vat_rates_mark_change', 'vat_rates_truncate_voids_positions'),
  // The RemovalsFailSafe migration: a deleted VAT rate marks the products that showed it; a client's
  // creating transaction, kept (positions older than it are refused).
  ...always('vat_rates', 'vat_rates_deleted_mark_products'),
  ...always('api_clients', 'api_clients_created_xact', 'api_clients_keep_created_xact'),
  ...always('stores', 'stores_grant_created', 'stores_truncate_voids_positions'),
  ...always(
    'api_clients',
    'api_clients_grant_widened',
    'api_clients_keep_revocation',
    'api_clients_truncate_voids_positions',
  ),
  ...always('api_client_store_grants', 'api_client_store_grants_truncate_voids_positions'),
  ...always('api_keys', 'api_keys_keep_revocation'),
  // The UncheckedWritesMarked migration: where foreign keys do not fire (replica role), a VAT rate given
  // another id or tenant marks the products of the old one, a stock level given another store its product.
  ...always('vat_rates', 'vat_rates_renamed_mark_products'),
  ...always('stock_levels', 'stock_levels_moved_mark_product'),
];

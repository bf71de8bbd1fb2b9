import { Column, Entity, PrimaryColumn } from 'typeorm';
import { IdColumn, TimestampColumn } from '../columns.js';
import { TenantRows } from '../tenant-rows.js';

/**
 * A product that left a store (deleted, or moved to another store), written by triggers (see the
 * Removals migration): every client that sees the store learns it from the removals feeds.
 */
@Entity({ name: 'sync_removals' })
@TenantRows({ store: 'store_id' })
export class SyncRemoval {
  @PrimaryColumn({ type: 'bigint', generatedIdentity: 'ALWAYS', insert: false, update: false }) id: string;
  @IdColumn('tenant_id') tenantId: string;
  @IdColumn('store_id') storeId: string;
  @IdColumn('product_id') productId: string;
  @Column({ name: 'removed_xact', type: 'bigint', insert: false, update: false }) removedXact: string;
  @TimestampColumn('removed_at') removedAt: Date;
}

/**
 * What left one API client's view when a store did (its allow-list narrowed, or the store was
 * deleted). Rows of the whole tenant, read by the client's id: `former_store_id` is a store the
 * client may no longer see, not a store boundary.
 */
@Entity({ name: 'client_removals' })
@TenantRows({ store: null })
export class ClientRemoval {
  @PrimaryColumn({ type: 'bigint', generatedIdentity: 'ALWAYS', insert: false, update: false }) id: string;
  @IdColumn('client_id') clientId: string;
  @IdColumn('tenant_id') tenantId: string;
  @IdColumn('former_store_id') formerStoreId: string;
  @IdColumn('product_id') productId: string;
  @Column({ name: 'removed_xact', type: 'bigint', insert: false, update: false }) removedXact: string;
  @TimestampColumn('removed_at') removedAt: Date;
}

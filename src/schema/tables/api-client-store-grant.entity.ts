import { Column, Entity } from 'typeorm';
import { IdColumn } from '../columns.js';
import { TenantRows } from '../tenant-rows.js';

/**
 * When a store came into an API client's view (its allow-list widened, or a store it may see was
 * created), written by triggers: an incremental sync round brings the rows of every store granted
 * since its position (see the SyncInputs migration).
 */
@Entity({ name: 'api_client_store_grants' })
@TenantRows({ store: 'store_id' })
export class ApiClientStoreGrant {
  @IdColumn('client_id', { primary: true }) clientId: string;
  @IdColumn('tenant_id') tenantId: string;
  @IdColumn('store_id', { primary: true }) storeId: string;
  @Column({ name: 'granted_xact', type: 'bigint', insert: false, update: false }) grantedXact: string;
}

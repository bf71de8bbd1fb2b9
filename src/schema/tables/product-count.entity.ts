import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { IdColumn } from '../columns.js';
import { TenantRows } from '../tenant-rows.js';

/**
 * How many products a tenant has per store and activity, kept exact by triggers on products: the
 * totals of unfiltered lists are a sum of a few of these rows. Rows are deltas, only ever inserted
 * (a writer never waits for another's count row) and folded by triggers (see the FailSafeSync migration).
 */
@Entity({ name: 'product_counts' })
@Index('product_counts_key_idx', ['tenantId', 'storeId', 'isActive'])
@TenantRows({ store: 'store_id' })
export class ProductCount {
  @PrimaryColumn({ type: 'bigint', generatedIdentity: 'ALWAYS', insert: false, update: false }) id: string;
  @IdColumn('tenant_id') tenantId: string;
  @IdColumn('store_id') storeId: string;
  @Column({ name: 'is_active', type: 'boolean' }) isActive: boolean;
  @Column({ type: 'bigint' }) n: string;
}

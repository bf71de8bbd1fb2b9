import { Column, Entity } from 'typeorm';
import { IdColumn } from '../columns.js';
import { TenantRows } from '../tenant-rows.js';

/**
 * How many products a tenant has per store and activity, kept exact by statement-level triggers on
 * products: the totals of unfiltered lists are a sum of a few of these rows.
 */
@Entity({ name: 'product_counts' })
@TenantRows({ store: 'store_id' })
export class ProductCount {
  @IdColumn('tenant_id', { primary: true }) tenantId: string;
  @IdColumn('store_id', { primary: true }) storeId: string;
  @Column({ name: 'is_active', type: 'boolean', primary: true }) isActive: boolean;
  @Column({ type: 'bigint' }) n: string;
}

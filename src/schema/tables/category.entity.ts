import { Column, Entity } from 'typeorm';
import { IdColumn, IdPrimaryColumn, StoredRowColumn, TimestampColumn } from '../columns.js';
import { TenantRows } from '../tenant-rows.js';

@Entity({ name: 'categories' })
@TenantRows({ store: 'store_id' })
export class Category {
  @IdPrimaryColumn() id: string;
  @IdColumn('tenant_id') tenantId: string;
  @IdColumn('store_id') storeId: string;
  @IdColumn('parent_category_id', { nullable: true }) parentCategoryId: string | null;
  @Column({ type: 'text' }) name: string;
  @Column({ type: 'text', nullable: true }) code: string | null;
  @Column({ type: 'text', nullable: true }) description: string | null;
  @Column({ name: 'sort_order', type: 'integer' }) sortOrder: number;
  @Column({ name: 'is_active', type: 'boolean' }) isActive: boolean;
  /** Archived categories are never returned, whatever the filters. */
  @Column({ name: 'is_archived', type: 'boolean' }) isArchived: boolean;
  @TimestampColumn('updated_at') updatedAt: Date;
  @StoredRowColumn('category_row_v1_1') categoryRow1: string | null;
}

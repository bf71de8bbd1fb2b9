import { Column, Entity } from 'typeorm';
import { IdColumn, IdPrimaryColumn } from '../columns.js';
import { TenantRows } from '../tenant-rows.js';

/** Internal: staff references are never exposed on /v1. */
@Entity({ name: 'staff' })
@TenantRows({ store: null })
export class Staff {
  @IdPrimaryColumn() id: string;
  @IdColumn('tenant_id') tenantId: string;
  @Column({ type: 'text' }) name: string;
}

import { Column, Entity } from 'typeorm';
import { IdColumn, IdPrimaryColumn } from '../columns.js';
import { TenantRows } from '../tenant-rows.js';

@Entity({ name: 'stores' })
@TenantRows({ store: 'id' })
export class Store {
  @IdPrimaryColumn() id: string;
  @IdColumn('tenant_id') tenantId: string;
  @Column({ type: 'text' }) name: string;
}

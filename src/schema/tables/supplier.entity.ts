import { Column, Entity } from 'typeorm';
import { IdColumn, IdPrimaryColumn } from '../columns.js';
import { TenantRows } from '../tenant-rows.js';

/** Internal: supplier information is never exposed on /v1. */
@Entity({ name: 'suppliers' })
@TenantRows({ store: null })
export class Supplier {
  @IdPrimaryColumn() id: string;
  @IdColumn('tenant_id') tenantId: string;
  @Column({ type: 'text' }) name: string;
  @Column({ name: 'contact_email', type: 'text', nullable: true }) contactEmail: string | null;
}

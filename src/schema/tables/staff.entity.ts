import { Column, Entity } from 'typeorm';
import { IdColumn, IdPrimaryColumn } from '../columns.js';

/** Internal: staff references are never exposed on /v1. */
@Entity({ name: 'staff' })
export class Staff {
  @IdPrimaryColumn() id: string;
  @IdColumn('tenant_id') tenantId: string;
  @Column({ type: 'text' }) name: string;
}

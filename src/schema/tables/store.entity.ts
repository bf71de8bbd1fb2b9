import { Column, Entity } from 'typeorm';
import { IdColumn, IdPrimaryColumn } from '../columns.js';

@Entity({ name: 'stores' })
export class Store {
  @IdPrimaryColumn() id: string;
  @IdColumn('tenant_id') tenantId: string;
  @Column({ type: 'text' }) name: string;
}

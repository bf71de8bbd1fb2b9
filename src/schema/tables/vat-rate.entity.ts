import { Column, Entity } from 'typeorm';
import { DecimalColumn, IdColumn, IdPrimaryColumn } from '../columns.js';

@Entity({ name: 'vat_rates' })
export class VatRate {
  @IdPrimaryColumn() id: string;
  @IdColumn('tenant_id') tenantId: string;
  @Column({ type: 'text' }) code: string;
  @Column({ type: 'text' }) name: string;
  @DecimalColumn('percentage', 7, 2) percentage: string;
}

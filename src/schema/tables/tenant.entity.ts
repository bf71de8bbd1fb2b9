import { Column, Entity } from 'typeorm';
import { IdPrimaryColumn } from '../columns.js';

@Entity({ name: 'tenants' })
export class Tenant {
  @IdPrimaryColumn() id: string;
  @Column({ type: 'text' }) name: string;
  /** ISO 4217 code, used in promotion descriptions. */
  @Column({ type: 'char', length: 3 }) currency: string;
}

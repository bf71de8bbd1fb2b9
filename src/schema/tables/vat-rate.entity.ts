import { Column, Entity } from 'typeorm';
import { DecimalColumn, IdColumn, IdPrimaryColumn, StoredRowColumn } from '../columns.js';
import { TenantRows } from '../tenant-rows.js';

@Entity({ name: 'vat_rates' })
@TenantRows({ store: null })
export class VatRate {
  @IdPrimaryColumn() id: string;
  @IdColumn('tenant_id') tenantId: string;
  @Column({ type: 'text' }) code: string;
  @Column({ type: 'text' }) name: string;
  @DecimalColumn('percentage', 7, 2) percentage: string;
  /** The transaction that last changed the row (its xid8), set by the database: the sync position's unit. */
  @Column({ name: 'change_xact', type: 'bigint', insert: false, update: false, select: false }) changeXact: string;
  /** The product row's vatRate (PRODUCT_ROW, generated). */
  @StoredRowColumn('product_row_v1_2') productRow2: string | null;
}

import { Column, Entity, PrimaryColumn } from 'typeorm';
import { DecimalColumn, IdColumn, StoredRowColumn, TimestampColumn } from '../columns.js';
import { TenantRows } from '../tenant-rows.js';

/** One per product. `lowStockThreshold` is written by a database trigger from `reorderLevel`. */
@Entity({ name: 'stock_levels' })
@TenantRows({ store: 'store_id' })
export class StockLevel {
  @PrimaryColumn({ name: 'product_id', type: 'varchar', length: 128, collation: 'C' }) productId: string;
  @IdColumn('tenant_id') tenantId: string;
  @IdColumn('store_id') storeId: string;
  @Column({ name: 'track_stock', type: 'boolean' }) trackStock: boolean;
  @DecimalColumn('quantity', 14, 3) quantity: string;
  @DecimalColumn('reorder_level', 14, 3) reorderLevel: string;
  @DecimalColumn('low_stock_threshold', 14, 3) lowStockThreshold: string;
  @TimestampColumn('updated_at') updatedAt: Date;
  /** The transaction that last changed the row (its xid8), set by the database: the sync position's unit. */
  @Column({ name: 'change_xact', type: 'bigint', insert: false, update: false, select: false }) changeXact: string;
  /** The stock row's part read from this table (STOCK_ROW, generated). */
  @StoredRowColumn('stock_row_v1_2') stockRow2: string | null;
  /** The product's isActive, copied by triggers so that low-stock lists need not join the products. */
  @Column({ name: 'product_is_active', type: 'boolean' }) productIsActive: boolean;
}

import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { DecimalColumn, IdColumn, IdPrimaryColumn, TimestampColumn } from '../columns.js';
import { TenantRows } from '../tenant-rows.js';

export const STOCK_MOVEMENT_KINDS = ['SALE', 'RECEIPT', 'ADJUSTMENT', 'TRANSFER', 'WASTE'] as const;

/** Internal: cost layers are never exposed on /v1. */
@Entity({ name: 'stock_cost_layers' })
export class StockCostLayer {
  @PrimaryGeneratedColumn({ type: 'bigint' }) id: string;
  @IdColumn('product_id') productId: string;
  @DecimalColumn('quantity', 14, 3) quantity: string;
  @DecimalColumn('unit_cost', 14, 4) unitCost: string;
  @TimestampColumn('received_at') receivedAt: Date;
}

/** Internal: stock movement and adjustment history is never exposed on /v1. */
@Entity({ name: 'stock_movements' })
@TenantRows({ store: null })
export class StockMovement {
  @IdPrimaryColumn() id: string;
  @IdColumn('tenant_id') tenantId: string;
  @IdColumn('product_id') productId: string;
  @Column({ type: 'text' }) kind: (typeof STOCK_MOVEMENT_KINDS)[number];
  @DecimalColumn('quantity_delta', 14, 3) quantityDelta: string;
  @Column({ type: 'text', nullable: true }) reason: string | null;
  @IdColumn('staff_id', { nullable: true }) staffId: string | null;
  @TimestampColumn('occurred_at') occurredAt: Date;
}

import { Column, Entity } from 'typeorm';
import { IdColumn, IdPrimaryColumn, TimestampColumn } from '../columns.js';
import { TenantRows } from '../tenant-rows.js';

export const CLIENT_STATUSES = ['ACTIVE', 'DISABLED', 'REVOKED'] as const;
export type ClientStatus = (typeof CLIENT_STATUSES)[number];

@Entity({ name: 'api_clients' })
@TenantRows({ store: null })
export class ApiClient {
  @IdPrimaryColumn() id: string;
  @IdColumn('tenant_id') tenantId: string;
  @Column({ type: 'text' }) name: string;
  @Column({ type: 'text' }) status: ClientStatus;
  @Column({ type: 'text', array: true }) scopes: string[];
  /** null: every store of the tenant, present and future. */
  @Column({ name: 'allowed_store_ids', type: 'varchar', length: 128, array: true, nullable: true, collation: 'C' })
  allowedStoreIds: string[] | null;
  @Column({ name: 'rate_limit_per_minute', type: 'integer', nullable: true }) rateLimitPerMinute: number | null;
  @TimestampColumn('created_at') createdAt: Date;
  @TimestampColumn('updated_at') updatedAt: Date;
  /**
   * The transaction that created the row (its xid8), set by the database: a sync position at or below
   * it was handed out to an earlier client of the same id, and is refused.
   */
  @Column({ name: 'created_xact', type: 'bigint', insert: false, update: false, select: false }) createdXact: string;
}

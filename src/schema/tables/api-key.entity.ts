import { Column, Entity } from 'typeorm';
import { IdColumn, IdPrimaryColumn, TimestampColumn } from '../columns.js';

/** A key is stored only as its SHA-256 digest plus a display hint (prefix and last 4 characters). */
@Entity({ name: 'api_keys' })
export class ApiKey {
  @IdPrimaryColumn() id: string;
  @IdColumn('client_id') clientId: string;
  @Column({ name: 'key_digest', type: 'char', length: 64 }) keyDigest: string;
  @Column({ name: 'key_hint', type: 'text' }) keyHint: string;
  @TimestampColumn('expires_at', { nullable: true }) expiresAt: Date | null;
  @TimestampColumn('revoked_at', { nullable: true }) revokedAt: Date | null;
  @TimestampColumn('created_at') createdAt: Date;
}

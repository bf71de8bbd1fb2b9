import { Entity, PrimaryColumn } from 'typeorm';
import { IdColumn, TimestampColumn } from '../columns.js';

/**
 * Revocations, kept apart from the keys and clients they revoke so that no later write (an import, a
 * --replace, plain SQL) can undo them: triggers re-apply them (see the PermanentRevocation migration).
 */
@Entity({ name: 'api_key_revocations' })
export class ApiKeyRevocation {
  @PrimaryColumn({ name: 'key_digest', type: 'char', length: 64 }) keyDigest: string;
  @TimestampColumn('revoked_at') revokedAt: Date;
}

@Entity({ name: 'api_client_revocations' })
export class ApiClientRevocation {
  @IdColumn('client_id', { primary: true }) clientId: string;
  @TimestampColumn('revoked_at') revokedAt: Date;
}

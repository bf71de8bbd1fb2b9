import { Injectable } from '@nestjs/common';
import { SqlReader } from '../database/sql-reader.js';
import { fixedStatement } from '../database/statement.js';

/** A key with its client, as stored: validity is decided by ApiKeyService, on every request. */
export interface KeyRow {
  key_id: string;
  client_id: string;
  tenant_id: string;
  status: string;
  scopes: string[];
  allowed_store_ids: string[] | null;
  rate_limit_per_minute: number | null;
  expires_at: Date | null;
  revoked_at: Date | null;
}

const KEY_BY_DIGEST = fixedStatement<{ digest: string }>(
  (sql) => `SELECT k.id AS key_id, c.id AS client_id, c.tenant_id, c.status, c.scopes, c.allowed_store_ids,
       c.rate_limit_per_minute, k.expires_at, k.revoked_at
  FROM api_keys k JOIN api_clients c ON c.id = k.client_id
 WHERE k.key_digest = ${sql.param((i) => i.digest)}`,
);

/** Keys by digest, read on the primary: a revocation is never hidden by a lagging replica. */
@Injectable()
export class ApiKeysRepository {
  constructor(private readonly reader: SqlReader) {}

  /**
   * `client` is whom the lookup counts for at the fair scheduler (docs/rate-limits.md#overload):
   * ApiKeyService names it (the key's API client when known, else the class of unknown keys).
   */
  async findByDigest(digest: string, deadlineMs: number, client: string): Promise<KeyRow | null> {
    const rows = await this.reader.read(deadlineMs, { cost: 'cheap', server: 'primary', client }, (session) =>
      session.rows<KeyRow>(KEY_BY_DIGEST, KEY_BY_DIGEST.values({ digest })),
    );
    return rows[0] ?? null;
  }
}

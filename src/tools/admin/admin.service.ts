import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { digestKey, generateKey, keyHint } from '../../values/api-key-format.js';
import { ApiClient, type ClientStatus } from '../../schema/tables/api-client.entity.js';
import { ApiKey } from '../../schema/tables/api-key.entity.js';
import { isScope, type Scope, SCOPES } from '../../auth/scopes.js';
import type { AppEnv } from '../../config/app-config.js';
import { isOpaqueId } from '../../values/formats.js';

/** A mistake in what the operator asked for: reported as one line, nothing written. */
export class AdminError extends Error {}

export interface ClientSummary {
  id: string;
  tenantId: string;
  name: string;
  status: ClientStatus;
  scopes: Scope[];
  allowedStoreIds: string[] | null;
  rateLimitPerMinute: number | null;
  /** Keys that authenticate now: none while the client is disabled or revoked. */
  activeKeys: number;
  createdAt: string;
}

export interface KeySummary {
  id: string;
  clientId: string;
  hint: string;
  status: 'active' | 'revoked' | 'expired';
  expiresAt: string | null;
  revokedAt: string | null;
  createdAt: string;
}

const newId = (prefix: string): string =>
  `${prefix}_${randomBytes(12).toString('base64url').replace(/[-_]/g, '').slice(0, 16)}`;
const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString());

/** The integration clients and keys of the administrative developer tool. */
export class AdminService {
  constructor(private readonly db: DataSource) {}

  async createClient(input: {
    tenantId: string;
    name: string;
    scopes: string[];
    storeIds: string[] | null;
    rateLimitPerMinute: number | null;
  }): Promise<ClientSummary> {
    if (!isOpaqueId(input.tenantId)) throw new AdminError(`--tenant: "${input.tenantId}" is not a valid id`);
    const tenant = await this.db.query('SELECT id FROM tenants WHERE id = $1', [input.tenantId]);
    if (tenant.length === 0) throw new AdminError(`--tenant: no tenant "${input.tenantId}"`);
    if (input.name.trim() === '' || input.name.length > 200)
      throw new AdminError('--name: give a name of 1 to 200 characters');
    if (input.scopes.length === 0) throw new AdminError(`--scopes: give at least one of ${SCOPES.join(', ')}`);
    const unknown = input.scopes.find((s) => !isScope(s));
    if (unknown !== undefined)
      throw new AdminError(`--scopes: unknown scope "${unknown}" (scopes: ${SCOPES.join(', ')})`);
    if (input.storeIds !== null) {
      if (input.storeIds.length === 0)
        throw new AdminError('--stores: give at least one store id, or leave --stores out for every store');
      const found: { id: string }[] = await this.db.query(
        'SELECT id FROM stores WHERE tenant_id = $1 AND id = ANY($2)',
        [input.tenantId, input.storeIds],
      );
      const missing = input.storeIds.find((id) => !found.some((f) => f.id === id));
      if (missing !== undefined) throw new AdminError(`--stores: no store "${missing}" in tenant "${input.tenantId}"`);
    }
    if (
      input.rateLimitPerMinute !== null &&
      (!Number.isInteger(input.rateLimitPerMinute) ||
        input.rateLimitPerMinute < 1 ||
        input.rateLimitPerMinute > 1_000_000)
    ) {
      throw new AdminError('--rate-limit: give a whole number of requests per minute from 1 to 1000000');
    }
    const id = newId('cli');
    await this.db.getRepository(ApiClient).insert({
      id,
      tenantId: input.tenantId,
      name: input.name.trim(),
      status: 'ACTIVE',
      scopes: [...new Set(input.scopes)] as Scope[],
      allowedStoreIds: input.storeIds === null ? null : [...new Set(input.storeIds)],
      rateLimitPerMinute: input.rateLimitPerMinute,
      createdAt: new Date(),
      updatedAt: new Date(),
    });
    return (await this.listClients(input.tenantId)).find((c) => c.id === id)!;
  }

  async listClients(tenantId?: string): Promise<ClientSummary[]> {
    if (tenantId !== undefined) {
      const tenant = await this.db.query('SELECT id FROM tenants WHERE id = $1', [tenantId]);
      if (tenant.length === 0) throw new AdminError(`--tenant: no tenant "${tenantId}"`);
    }
    const rows: (Omit<ClientSummary, 'createdAt' | 'activeKeys'> & { createdAt: Date; activeKeys: number })[] =
      await this.db.query(
        `SELECT c.id, c.tenant_id AS "tenantId", c.name, c.status, c.scopes, c.allowed_store_ids AS "allowedStoreIds",
              c.rate_limit_per_minute AS "rateLimitPerMinute", c.created_at AS "createdAt",
              CASE WHEN c.status <> 'ACTIVE' THEN 0 ELSE
                (SELECT count(*)::int FROM api_keys k WHERE k.client_id = c.id AND k.revoked_at IS NULL
                   AND (k.expires_at IS NULL OR k.expires_at > now())) END AS "activeKeys"
         FROM api_clients c WHERE ($1::text IS NULL OR c.tenant_id = $1) ORDER BY c.tenant_id, c.id`,
        [tenantId ?? null],
      );
    return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
  }

  async setClientStatus(clientId: string, status: ClientStatus): Promise<ClientSummary> {
    const client = await this.db.getRepository(ApiClient).findOneBy({ id: clientId });
    if (!client) throw new AdminError(`no client "${clientId}"`);
    if (client.status === 'REVOKED' && status !== 'REVOKED')
      throw new AdminError(`client "${clientId}" is revoked; a revoked client cannot be enabled or disabled`);
    await this.db.getRepository(ApiClient).update({ id: clientId }, { status, updatedAt: new Date() });
    return (await this.listClients()).find((c) => c.id === clientId)!;
  }

  /** The only place a key exists in plain text: returned once, stored as a digest and a hint. */
  async issueKey(
    clientId: string,
    expiresAt: Date | null,
    env: AppEnv,
    now = new Date(),
  ): Promise<KeySummary & { key: string }> {
    const client = await this.db.getRepository(ApiClient).findOneBy({ id: clientId });
    if (!client) throw new AdminError(`--client: no client "${clientId}"`);
    if (client.status === 'REVOKED') throw new AdminError(`--client: client "${clientId}" is revoked`);
    if (expiresAt !== null && expiresAt.getTime() <= now.getTime())
      throw new AdminError('--expires: the date must be in the future');
    const key = generateKey(env);
    const id = newId('key');
    await this.db.getRepository(ApiKey).insert({
      id,
      clientId,
      keyDigest: digestKey(key),
      keyHint: keyHint(key),
      expiresAt,
      revokedAt: null,
      createdAt: now,
    });
    return { ...(await this.listKeys(clientId)).find((k) => k.id === id)!, key };
  }

  async listKeys(clientId: string): Promise<KeySummary[]> {
    const client = await this.db.getRepository(ApiClient).findOneBy({ id: clientId });
    if (!client) throw new AdminError(`--client: no client "${clientId}"`);
    const keys = await this.db
      .getRepository(ApiKey)
      .find({ where: { clientId }, order: { createdAt: 'ASC', id: 'ASC' } });
    const now = Date.now();
    return keys.map((k) => ({
      id: k.id,
      clientId: k.clientId,
      hint: k.keyHint,
      status:
        k.revokedAt !== null ? 'revoked' : k.expiresAt !== null && k.expiresAt.getTime() <= now ? 'expired' : 'active',
      expiresAt: iso(k.expiresAt),
      revokedAt: iso(k.revokedAt),
      createdAt: k.createdAt.toISOString(),
    }));
  }

  async revokeKey(keyId: string): Promise<KeySummary> {
    const key = await this.db.getRepository(ApiKey).findOneBy({ id: keyId });
    if (!key) throw new AdminError(`no key "${keyId}"`);
    if (key.revokedAt === null) await this.db.getRepository(ApiKey).update({ id: keyId }, { revokedAt: new Date() });
    return (await this.listKeys(key.clientId)).find((k) => k.id === keyId)!;
  }
}

import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { digestKey, generateKey, keyHint } from '../../values/api-key-format.js';
import { ApiClient, type ClientStatus } from '../../schema/tables/api-client.entity.js';
import { ApiKey } from '../../schema/tables/api-key.entity.js';
import { lockProductsForNarrowingSql, mayNarrow } from '../../schema/narrowing-lock.js';
import { isScope, type Scope, SCOPES } from '../../auth/scopes.js';
import type { AppEnv } from '../../config/app-config.js';
import { isOpaqueId } from '../../values/formats.js';
import { RECORD_SERVER_START_SQL, SERVER_STARTED_SQL } from '../../schema/sync-state.js';

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

function checkName(name: string): void {
  if (name.trim() === '' || name.length > 200) throw new AdminError('--name: give a name of 1 to 200 characters');
}

function checkScopes(scopes: string[]): void {
  if (scopes.length === 0) throw new AdminError(`--scopes: give at least one of ${SCOPES.join(', ')}`);
  const unknown = scopes.find((s) => !isScope(s));
  if (unknown !== undefined)
    throw new AdminError(`--scopes: unknown scope "${unknown}" (scopes: ${SCOPES.join(', ')})`);
}

function checkRateLimit(perMinute: number | null): void {
  if (perMinute !== null && (!Number.isInteger(perMinute) || perMinute < 1 || perMinute > 1_000_000)) {
    throw new AdminError('--rate-limit: give a whole number of requests per minute from 1 to 1000000');
  }
}

const newId = (prefix: string): string =>
  `${prefix}_${randomBytes(12).toString('base64url').replace(/[-_]/g, '').slice(0, 16)}`;
const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString());

/** What `clients:update` changes; what is left undefined stays as it is. */
export interface ClientChanges {
  name?: string;
  scopes?: string[];
  /** The stores it may see: a list, or null for every store of its tenant. */
  stores?: { set: string[] | null } | { add: string[]; remove: string[] };
  /** Requests per minute, or null for the service's default. */
  rateLimitPerMinute?: number | null;
}

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
    checkName(input.name);
    checkScopes(input.scopes);
    if (input.storeIds !== null) await this.checkStores(input.tenantId, input.storeIds, '--stores');
    checkRateLimit(input.rateLimitPerMinute);
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

  /**
   * Changes a client's name, scopes, stores or rate limit, in one write. A store that comes into its
   * view is recorded by the database (see the SyncInputs migration), so that the next incremental sync
   * round of every key of the client brings that store's rows; a narrowing is applied by running
   * servers within the revocation delay, and recorded by the database (see the Removals migration), so
   * that the removals walk of the next round lists the rows of the stores that left the view.
   */
  async updateClient(clientId: string, changes: ClientChanges): Promise<ClientSummary> {
    const client = await this.db.getRepository(ApiClient).findOneBy({ id: clientId });
    if (!client) throw new AdminError(`no client "${clientId}"`);
    if (client.status === 'REVOKED') throw new AdminError(`client "${clientId}" is revoked; it cannot be changed`);
    const update: Partial<ApiClient> = { updatedAt: new Date() };
    if (changes.name !== undefined) {
      checkName(changes.name);
      update.name = changes.name.trim();
    }
    if (changes.scopes !== undefined) {
      checkScopes(changes.scopes);
      update.scopes = [...new Set(changes.scopes)];
    }
    if (changes.stores !== undefined) update.allowedStoreIds = await this.storesAfter(client, changes.stores);
    if (changes.rateLimitPerMinute !== undefined) {
      checkRateLimit(changes.rateLimitPerMinute);
      update.rateLimitPerMinute = changes.rateLimitPerMinute;
    }
    if (update.allowedStoreIds !== undefined && mayNarrow(client.allowedStoreIds, update.allowedStoreIds)) {
      // The narrowing trigger locks products; taken after the UPDATE holds the client's row, that lock
      // could deadlock with an import that wrote products and waits for this row. Taken first, it waits
      // for the writers under way instead (src/schema/narrowing-lock.ts).
      await this.db.transaction(async (m) => {
        await m.query(lockProductsForNarrowingSql('SHARE'));
        await m.getRepository(ApiClient).update({ id: clientId }, update);
      });
    } else {
      await this.db.getRepository(ApiClient).update({ id: clientId }, update);
    }
    return (await this.listClients()).find((c) => c.id === clientId)!;
  }

  private async storesAfter(client: ApiClient, stores: NonNullable<ClientChanges['stores']>): Promise<string[] | null> {
    if ('set' in stores) {
      if (stores.set !== null) await this.checkStores(client.tenantId, stores.set, '--stores');
      return stores.set === null ? null : [...new Set(stores.set)];
    }
    if (client.allowedStoreIds === null && stores.remove.length > 0) {
      throw new AdminError('--remove-stores: the client may see every store; give the stores it keeps with --stores');
    }
    if (stores.add.length > 0) await this.checkStores(client.tenantId, stores.add, '--add-stores');
    const current = client.allowedStoreIds ?? [];
    const absent = stores.remove.find((id) => !current.includes(id));
    if (absent !== undefined) throw new AdminError(`--remove-stores: the client may not see "${absent}" now`);
    if (client.allowedStoreIds === null) return null; // adding to every store changes nothing
    const after = [...new Set([...current, ...stores.add])].filter((id) => !stores.remove.includes(id));
    if (after.length === 0) {
      throw new AdminError('--remove-stores: the client would see no store; disable it instead (clients:disable)');
    }
    return after;
  }

  private async checkStores(tenantId: string, storeIds: string[], option: string): Promise<void> {
    if (storeIds.length === 0) throw new AdminError(`${option}: give at least one store id`);
    const bad = storeIds.find((id) => !isOpaqueId(id));
    if (bad !== undefined) throw new AdminError(`${option}: "${bad}" is not a valid id`);
    const found: { id: string }[] = await this.db.query('SELECT id FROM stores WHERE tenant_id = $1 AND id = ANY($2)', [
      tenantId,
      storeIds,
    ]);
    const missing = storeIds.find((id) => !found.some((f) => f.id === id));
    if (missing !== undefined) throw new AdminError(`${option}: no store "${missing}" in tenant "${tenantId}"`);
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

  /** Revokes a key; `alreadyRevoked` when it was (its revocation time is kept, nothing is written). */
  async revokeKey(keyId: string): Promise<{ key: KeySummary; alreadyRevoked: boolean }> {
    const key = await this.db.getRepository(ApiKey).findOneBy({ id: keyId });
    if (!key) throw new AdminError(`no key "${keyId}"`);
    const alreadyRevoked = key.revokedAt !== null;
    if (!alreadyRevoked) await this.db.getRepository(ApiKey).update({ id: keyId }, { revokedAt: new Date() });
    return { key: (await this.listKeys(key.clientId)).find((k) => k.id === keyId)!, alreadyRevoked };
  }

  /**
   * Says that the primary server's current start continues the start recorded before it: the server
   * started again from its own files as they were when it stopped (a restart in place, not a copy, a
   * snapshot or a backup), so the sync positions handed out under that start are honoured again
   * (docs/sync.md#restarts-of-postgresql). The operator vouches for it: nothing here can check it.
   */
  async restartedInPlace(): Promise<ServerRestart> {
    return this.db.transaction(async (m) => {
      const [{ now }] = await m.query(`SELECT ${SERVER_STARTED_SQL} AS now`);
      if (now === null) throw new AdminError('DATABASE_URL reaches a standby: run this against the primary');
      // Crash recovery (a crash, an immediate stop, a copy of the files started as it is) resets the
      // shared statistics; a clean start keeps their reset time from before it. Such a run may have
      // lost commits or reuse transaction ids that positions counted on: nobody can vouch for it.
      const [{ recovered }] = await m.query(
        `SELECT COALESCE((SELECT stats_reset FROM pg_stat_bgwriter) >= pg_postmaster_start_time(), false) AS recovered`,
      );
      if (recovered)
        throw new AdminError(
          "the server's current run began with crash recovery (a crash, an immediate stop, or a copy of its files " +
            'started as it is): what positions counted on may be lost, so they stay refused (integrations take a ' +
            'full copy). Only a clean shutdown (pg_ctl stop -m smart or fast) and start can be said to continue',
        );
      await m.query(RECORD_SERVER_START_SQL);
      // One operator at a time: a second run waits and then finds the start continued.
      const [row] = await m.query(
        `SELECT continues::text FROM public.sync_server_starts WHERE started = $1 FOR UPDATE`,
        [now],
      );
      const at = (micros: string): string => new Date(Number(BigInt(micros) / 1000n)).toISOString();
      if (row.continues !== null) return { started: at(now), continues: at(row.continues), already: true };
      const [before] = await m.query(
        `SELECT started::text FROM public.sync_server_starts WHERE started < $1 ORDER BY started DESC LIMIT 1`,
        [now],
      );
      if (before === undefined)
        throw new AdminError(
          'no earlier start of this database server is recorded (the service records each start within seconds ' +
            'of reading it): there are no positions to honour again',
        );
      await m.query(`UPDATE public.sync_server_starts SET continues = $2 WHERE started = $1`, [now, before.started]);
      return { started: at(now), continues: at(before.started), already: false };
    });
  }
}

/** What `sync:restarted-in-place` did: the server's start (ISO), and the earlier start it continues. */
export interface ServerRestart {
  started: string;
  continues: string;
  /** The start was said to continue it before: nothing changed. */
  already: boolean;
}

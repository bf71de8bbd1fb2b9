import { readFile } from 'node:fs/promises';
import type { DataSource } from 'typeorm';
import { digestKey, isKeyForEnvironment } from '../values/api-key-format.js';
import type { AppEnv } from '../config/app-config.js';
import { DEMO_DATASET_URL } from './prepare-database.js';

export interface DemoKey {
  key: string;
  clientName: string;
  scopes: string[];
  allowedStoreIds: string[] | null;
}

/**
 * The keys of the demo data set that work now, one per client, in the file's order: the database
 * keeps only digests, so the file's keys are matched against the digests of keys that are neither
 * revoked nor expired, of active clients (a key revoked with `npm run admin` is no longer offered).
 */
export async function usableDemoKeys(db: DataSource, env: AppEnv): Promise<DemoKey[]> {
  const demo = JSON.parse(await readFile(DEMO_DATASET_URL, 'utf8')) as { apiClients?: { keys: { key: string }[] }[] };
  const keys = (demo.apiClients ?? [])
    .flatMap((c) => c.keys.map((k) => k.key))
    .filter((k) => isKeyForEnvironment(k, env));
  const byDigest = new Map(keys.map((key) => [digestKey(key), key]));
  const rows: { digest: string; clientId: string; name: string; scopes: string[]; allowedStoreIds: string[] | null }[] =
    await db.query(
      `SELECT k.key_digest AS digest, c.id AS "clientId", c.name, c.scopes, c.allowed_store_ids AS "allowedStoreIds"
         FROM api_keys k JOIN api_clients c ON c.id = k.client_id
        WHERE k.key_digest = ANY($1) AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now())
          AND c.status = 'ACTIVE'`,
      [[...byDigest.keys()]],
    );
  const inFileOrder = rows
    .map((r) => ({ ...r, key: byDigest.get(r.digest)! }))
    .sort((a, b) => keys.indexOf(a.key) - keys.indexOf(b.key));
  const usable: DemoKey[] = [];
  const clients = new Set<string>();
  for (const r of inFileOrder) {
    if (clients.has(r.clientId)) continue;
    clients.add(r.clientId);
    usable.push({ key: r.key, clientName: r.name, scopes: r.scopes, allowedStoreIds: r.allowedStoreIds });
  }
  return usable;
}

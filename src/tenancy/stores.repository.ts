import { Injectable } from '@nestjs/common';
import { SqlReader } from '../database/sql-reader.js';
import { fixedStatement } from '../database/statement.js';

type StoreInput = { tenantId: string; storeId: string };
type ViewInput = { tenantId: string; clientId: string; storeId: string | null };

/** What an API client may see now, and the snapshot it was read in (see ClientView). */
export interface ClientView {
  readonly allowedStoreIds: readonly string[] | null;
  /** Whether `storeId` names a store of the tenant (true when none was asked for). */
  readonly storeExists: boolean;
  /** The oldest transaction the read's snapshot could not see. */
  readonly horizon: string;
  /** The first transaction id not yet handed out when it was read. */
  readonly next: string;
  /** The client's creation (api_clients.created_xact): '0' for a client made before it was kept, or none. */
  readonly clientCreated: string;
}

const STORE_EXISTS = fixedStatement<StoreInput>(
  (sql) =>
    `SELECT 1 FROM stores WHERE id = ${sql.param((i) => i.storeId)} AND tenant_id = ${sql.param((i) => i.tenantId)}`,
);

const CLIENT_VIEW = fixedStatement<ViewInput>((sql) => {
  const tenant = sql.param((i) => i.tenantId);
  const client = sql.param((i) => i.clientId);
  const store = sql.param((i) => i.storeId);
  return `SELECT c.allowed_store_ids AS "allowedStoreIds",
       ${store}::text IS NULL OR EXISTS (SELECT 1 FROM stores s WHERE s.id = ${store} AND s.tenant_id = ${tenant})
         AS "storeExists",
       pg_snapshot_xmin(pg_current_snapshot())::text AS horizon,
       pg_snapshot_xmax(pg_current_snapshot())::text AS next,
       c.created_xact::text AS "clientCreated"
  FROM api_clients c WHERE c.id = ${client} AND c.tenant_id = ${tenant}`;
});

/**
 * The stores of a tenant and what a client may see of them, read on the primary: a store check is
 * never answered by a lagging replica, and a client's view never by a cache.
 */
@Injectable()
export class StoresRepository {
  constructor(private readonly reader: SqlReader) {}

  /** `client`: the API client the read counts against (its share of the pool). */
  async exists(tenantId: string, storeId: string, client: string, deadlineMs: number): Promise<boolean> {
    const input = { tenantId, storeId };
    const rows = await this.reader.read(deadlineMs, { cost: 'cheap', server: 'primary', client }, (session) =>
      session.rows(STORE_EXISTS, STORE_EXISTS.values(input)),
    );
    return rows.length > 0;
  }

  /** The stores a client may see, as they are now (not as the key cache last saw them). */
  async view(tenantId: string, clientId: string, storeId: string | null, deadlineMs: number): Promise<ClientView> {
    const input = { tenantId, clientId, storeId };
    const rows = await this.reader.read(deadlineMs, { cost: 'cheap', server: 'primary', client: clientId }, (session) =>
      session.rows<ClientView>(CLIENT_VIEW, CLIENT_VIEW.values(input)),
    );
    return rows[0] ?? { allowedStoreIds: [], storeExists: false, horizon: '0', next: '0', clientCreated: '0' };
  }
}

import { Injectable } from '@nestjs/common';
import { SqlReader } from '../database/sql-reader.js';
import { fixedStatement } from '../database/statement.js';

type StoreInput = { tenantId: string; storeId: string };

const STORE_EXISTS = fixedStatement<StoreInput>(
  (sql) =>
    `SELECT 1 FROM stores WHERE id = ${sql.param((i) => i.storeId)} AND tenant_id = ${sql.param((i) => i.tenantId)}`,
);

/** The stores of a tenant, read on the primary: a store check is never answered by a lagging replica. */
@Injectable()
export class StoresRepository {
  constructor(private readonly reader: SqlReader) {}

  async exists(tenantId: string, storeId: string, deadlineMs: number): Promise<boolean> {
    const input = { tenantId, storeId };
    const rows = await this.reader.read(deadlineMs, { lane: 'light', server: 'primary' }, (session) =>
      session.rows(STORE_EXISTS, STORE_EXISTS.values(input)),
    );
    return rows.length > 0;
  }
}

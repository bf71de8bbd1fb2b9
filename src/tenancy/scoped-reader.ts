import { Injectable } from '@nestjs/common';
import { type ReadOptions, SqlReader } from '../database/sql-reader.js';
import type { Statement } from '../database/statement.js';
import type { DataScope } from './data-scope.js';

/** The statements of one request's read over tenant rows, on one connection. */
export interface ScopedSession {
  rows<R, I extends { readonly scope: DataScope }>(statement: Statement<I>, input: I): Promise<R[]>;
}

const TENANT_CONDITION = /\b\w+\.tenant_id = \$1\b/;

/**
 * The only way the repositories of /v1 data reach PostgreSQL. It takes the request's DataScope (which
 * only DataScopeService makes) and refuses a statement that is not bound to the scope's tenant: its
 * text must say `alias.tenant_id = $1` and its first value must be the scope's tenant (scopeCondition
 * writes both). A test keeps every other way to the database out of src/catalog and src/inventory.
 */
@Injectable()
export class ScopedReader {
  private readonly checked = new WeakSet<Statement<never>>();

  constructor(private readonly reader: SqlReader) {}

  read<T>(scope: DataScope, options: ReadOptions, work: (session: ScopedSession) => Promise<T>): Promise<T> {
    return this.reader.read(scope.deadlineMs, options, (session) =>
      work({
        rows: <R, I extends { readonly scope: DataScope }>(statement: Statement<I>, input: I): Promise<R[]> => {
          if (!this.checked.has(statement)) {
            if (!TENANT_CONDITION.test(statement.text))
              throw new Error(`statement not bound to a tenant: ${statement.text}`);
            this.checked.add(statement);
          }
          const values = statement.values(input);
          if (input.scope !== scope || values[0] !== scope.tenantId)
            throw new Error('statement bound to another scope');
          return session.rows<R>(statement, values);
        },
      }),
    );
  }
}

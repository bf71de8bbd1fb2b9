import { Injectable } from '@nestjs/common';
import { type ReadOptions, SqlReader } from '../database/sql-reader.js';
import type { Statement } from '../database/statement.js';
import { tenantTables } from '../schema/tenant-tables.js';
import { SYNC_GUARD_SQL, type SyncGuardRow } from '../schema/sync-state.js';
import { type DataScope, narrowScope, scopeShape } from './data-scope.js';
import { type ScopeShape, unboundReferences } from './scope-check.js';

/** The statements of one request's read over tenant rows, on one connection. */
export interface ScopedSession {
  rows<R, I extends { readonly scope: DataScope }>(statement: Statement<I>, input: I): Promise<R[]>;

  /**
   * On a snapshot read: what a sync round checks first (sync-state.ts), with the read's scope narrowed
   * to what the client may see in this snapshot (statements may then be bound to either).
   */
  syncGuard(): Promise<SyncGuard>;
}

export interface SyncGuard extends Omit<SyncGuardRow, 'clientExists' | 'allowedStoreIds'> {
  readonly scope: DataScope;
}

const SYNC_GUARD = { text: SYNC_GUARD_SQL, name: 'cia_sync_guard' };

/**
 * The only way the code of /v1 data reaches PostgreSQL. It takes the request's DataScope (which only
 * DataScopeService makes) and refuses a statement that is not bound to it, in two ways:
 * - its text, parsed by PostgreSQL's own parser, binds every reference to a table of tenant rows to
 *   the tenant ($1) and, when the scope names stores, to them ($2), with conditions ANDed at the top
 *   of its WHERE (or, on the nullable side of an outer join, its ON): see scope-check.ts. Checked once
 *   per statement and scope shape (statements are built once per shape).
 * - its values: $1 is the scope's tenant and $2 its stores.
 * A test keeps every other way to the database out of src/catalog, src/inventory and src/lists.
 */
@Injectable()
export class ScopedReader {
  private readonly checked = new WeakMap<Statement<never>, Map<ScopeShape, Promise<void> | typeof CHECKED>>();

  constructor(private readonly reader: SqlReader) {}

  /** An expensive read counts against the scope's API client (its share of the expensive capacity). */
  read<T>(scope: DataScope, options: ReadOptions, work: (session: ScopedSession) => Promise<T>): Promise<T> {
    // The scopes statements may be bound to: the read's, and its narrowing to a snapshot's view.
    const scopes = new Set<DataScope>([scope]);
    return this.reader.read(scope.deadlineMs, { ...options, client: scope.clientId }, (session) =>
      work({
        rows: <R, I extends { readonly scope: DataScope }>(statement: Statement<I>, input: I): Promise<R[]> =>
          this.bound(scopes, statement, input, (values) => session.rows<R>(statement, values)),
        syncGuard: async (): Promise<SyncGuard> => {
          if (!options.snapshot) throw new Error('a sync guard outside a snapshot guards nothing');
          const [row] = await session.rows<SyncGuardRow>(SYNC_GUARD, [scope.tenantId, scope.clientId]);
          const { clientExists, allowedStoreIds, ...guard } = row;
          const narrowed = narrowScope(scope, allowedStoreIds, clientExists);
          scopes.add(narrowed);
          return { ...guard, scope: narrowed };
        },
      }),
    );
  }

  /** Runs a statement once it is known bound to one of the read's scopes, by its text and its values. */
  private bound<T, I extends { readonly scope: DataScope }>(
    scopes: ReadonlySet<DataScope>,
    statement: Statement<I>,
    input: I,
    run: (values: unknown[]) => Promise<T>,
  ): Promise<T> {
    const values = statement.values(input);
    const bound = input.scope;
    if (!scopes.has(bound) || values[0] !== bound.tenantId || !storesBound(bound, values[1])) {
      return Promise.reject(new Error('statement bound to another scope'));
    }
    const checking = this.check(statement, scopeShape(bound));
    // Checked before (every statement after its first use): no wait for the check.
    return checking === CHECKED ? run(values) : checking.then(() => run(values));
  }

  /** CHECKED once the statement passed for this shape; until then the check under way. */
  private check(statement: Statement<never>, shape: ScopeShape): Promise<void> | typeof CHECKED {
    let shapes = this.checked.get(statement);
    if (shapes === undefined) {
      shapes = new Map();
      this.checked.set(statement, shapes);
    }
    let checking = shapes.get(shape);
    if (checking === undefined) {
      const known = shapes;
      checking = unboundReferences(statement.text, shape, tenantTables()).then((problems) => {
        if (problems.length > 0) throw new Error(`statement not bound to the scope: ${problems.join('; ')}`);
        known.set(shape, CHECKED);
      });
      shapes.set(shape, checking);
    }
    return checking;
  }
}

const CHECKED = Symbol('checked');

/** The second value of a statement is the scope's stores whenever the scope names any. */
function storesBound(scope: DataScope, second: unknown): boolean {
  const shape = scopeShape(scope);
  if (shape === 'all') return true;
  if (shape === 'one') return second === scope.storeIds![0];
  return second === scope.storeIds;
}

import { Injectable } from '@nestjs/common';
import { type ReadOptions, SqlReader } from '../database/sql-reader.js';
import type { Statement } from '../database/statement.js';
import { tenantTables } from '../schema/tenant-tables.js';
import { SYNC_GUARD_SQL, type SyncGuardRow } from '../schema/sync-state.js';
import { type DataScope, narrowScope, scopeShape } from './data-scope.js';
import { checkScope, type ScopeShape } from './scope-check.js';

/** The statements of one request's read over tenant rows, on one connection. */
export interface ScopedSession {
  rows<R, I extends { readonly scope: DataScope }>(statement: Statement<I>, input: I): Promise<R[]>;

  /** The rows as arrays, in the order of the select list: for reads of many rows (ReadSession.tuples). */
  tuples<R extends readonly unknown[], I extends { readonly scope: DataScope }>(
    statement: Statement<I>,
    input: I,
  ): Promise<R[]>;

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
 * - its values: $1 is the scope's tenant and, when its store conditions read $2, $2 its stores (a
 *   statement of rows of the whole tenant only, as VAT rates, has no store condition: no $2 to check).
 * A test keeps every other way to the database out of src/catalog, src/inventory and src/lists.
 */
@Injectable()
export class ScopedReader {
  private readonly checked = new WeakMap<Statement<never>, Map<ScopeShape, Promise<Checked> | Checked>>();

  constructor(private readonly reader: SqlReader) {}

  /** An expensive read counts against the scope's API client (its share of the expensive capacity). */
  read<T>(scope: DataScope, options: ReadOptions, work: (session: ScopedSession) => Promise<T>): Promise<T> {
    // The scopes statements may be bound to: the read's, and its narrowing to a snapshot's view.
    const scopes = new Set<DataScope>([scope]);
    return this.reader.read(scope.deadlineMs, { ...options, client: scope.clientId }, (session) =>
      work({
        rows: <R, I extends { readonly scope: DataScope }>(statement: Statement<I>, input: I): Promise<R[]> =>
          this.bound(scopes, statement, input, (values) => session.rows<R>(statement, values)),
        tuples: <R extends readonly unknown[], I extends { readonly scope: DataScope }>(
          statement: Statement<I>,
          input: I,
        ): Promise<R[]> => this.bound(scopes, statement, input, (values) => session.tuples<R>(statement, values)),
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
    const another = (): Promise<T> => Promise.reject(new Error('statement bound to another scope'));
    if (!scopes.has(bound) || values[0] !== bound.tenantId) return another();
    const go = (checked: Checked): Promise<T> =>
      checked.readsStores && !storesBound(bound, values[1]) ? another() : run(values);
    const checking = this.check(statement, scopeShape(bound));
    // Checked before (every statement after its first use): no wait for the check.
    return checking instanceof Promise ? checking.then(go) : go(checking);
  }

  /** What the check found once the statement passed for this shape; until then the check under way. */
  private check(statement: Statement<never>, shape: ScopeShape): Promise<Checked> | Checked {
    let shapes = this.checked.get(statement);
    if (shapes === undefined) {
      shapes = new Map();
      this.checked.set(statement, shapes);
    }
    let checking = shapes.get(shape);
    if (checking === undefined) {
      const known = shapes;
      checking = checkScope(statement.text, shape, tenantTables()).then(({ problems, readsStores }) => {
        if (problems.length > 0) throw new Error(`statement not bound to the scope: ${problems.join('; ')}`);
        const checked = { readsStores };
        known.set(shape, checked);
        return checked;
      });
      shapes.set(shape, checking);
    }
    return checking;
  }
}

/** A statement that passed the check for a shape: whether its store conditions read $2. */
interface Checked {
  readonly readsStores: boolean;
}

/** The second value of a statement is the scope's stores whenever the scope names any. */
function storesBound(scope: DataScope, second: unknown): boolean {
  const shape = scopeShape(scope);
  if (shape === 'all') return true;
  if (shape === 'one') return second === scope.storeIds![0];
  return second === scope.storeIds;
}

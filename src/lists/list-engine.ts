import { Injectable, Optional } from '@nestjs/common';
import type { ApiCaller } from '../auth/api-caller.js';
import { DatabaseIncarnation } from '../database/database-incarnation.js';
import { DatabaseOverloadedError } from '../database/deadline.js';
import { Shapes } from '../database/statement.js';
import { ApiError } from '../http/api-error.js';
import { type DataScope, DataScopeService, scoped, scopeShape, type SyncView } from '../tenancy/data-scope.js';
import { ScopedReader, type SyncGuard } from '../tenancy/scoped-reader.js';
import type { JsonText } from '../values/json-text.js';
import { CursorCodec } from './cursor.js';
import type { FilterDefinition, FilterValues, ListDefinition, SyncedListDefinition } from './list-definition.js';
import { type ListRead, ListStatements, type PageWindow, rowJoins, rowJson, type SyncRead } from './list-statements.js';
import { pageBody } from './page.js';
import { RemovalStatements, type RemovalsQuery, type RemovalsRead } from './removals.js';
import { RowTrust } from './row-trust.js';
import { AHEAD_OF_DATABASE, type DecodedPosition, invalidPosition, REFUSED, SyncPositions } from './sync-position.js';

/** What a paginated list request asks for: page numbers or a cursor, a sync position, a store, filters. */
export interface ListQuery {
  readonly page?: number;
  readonly pageSize: number;
  readonly cursor?: string;
  readonly changedSince?: string;
  readonly storeId?: string;
}

/** One page of a list: its body, the cursor of the next page and, on a sync walk, the position to store. */
export interface ListedPage {
  readonly body: JsonText;
  readonly nextCursor: string | null;
  readonly syncPosition: string | null;
}

/** Where one page stands in its walk (a page number or a cursor, a sync position), before the read. */
interface PagePlan {
  readonly window: PageWindow;
  /** The page number this page stands for. */
  readonly page: number;
  readonly sync: SyncRead;
  /** What the walk's sync position is bound to, but the client's creation (SyncPositions.binding). */
  readonly positionParts: readonly unknown[];
  /** On a page that continues a sync walk: its position, as handed out. */
  readonly position?: string;
  /** On a round: its position as decoded (the sync guard checks it in the read's snapshot). */
  readonly changed?: DecodedPosition;
  /** On a page that continues a sync walk: its position as decoded. */
  readonly walk?: DecodedPosition;
}

/** A page of a sync walk: its plan, and the client's creation as read before it (what its position was decoded for). */
interface SyncPlan extends PagePlan {
  readonly clientCreated: string;
}

/** What one read of a page gives back. */
export interface ListedRows {
  readonly total: number;
  readonly rows: readonly JsonText[];
  readonly lastId: string | null;
  readonly hasNext: boolean;
  /** The oldest transaction the read's snapshot could not see (asked for by takeHorizon or caughtUpTo). */
  readonly horizon: string | null;
  /** On a sync read: the database it read (what a position it hands out names). */
  readonly incarnation?: string;
  /** On a sync read: the client's creation in its snapshot (what a position it hands out is sealed for). */
  readonly clientCreated?: string;
  /** On a sync read: when the primary server it read started (null: none could be named). */
  readonly serverStarted?: string | null;
}

type OneInput = { readonly scope: DataScope; readonly id: string };

/**
 * Runs the lists declared by ListDefinitions, the one place where a page is read: the cursor is
 * checked (400) before the store (404), then the count and the page are read on a replica, or on the
 * primary when the replica has not caught up with the walk, and the page gets its cursor and, on a
 * walk of every row of the scope begun without `page`, the sync position (taken when the walk began,
 * carried by its cursors, so that it is the same on every page).
 */
@Injectable()
export class ListEngine {
  private readonly statements = new Map<ListDefinition, ListStatements>();
  private readonly byId = new Map<ListDefinition, Shapes<OneInput>>();
  private readonly removalStatements = new Map<ListDefinition, RemovalStatements>();

  constructor(
    private readonly cursors: CursorCodec,
    private readonly positions: SyncPositions,
    private readonly dataScopes: DataScopeService,
    private readonly reader: ScopedReader,
    private readonly database: DatabaseIncarnation,
    // Absent where the engine reads without the service (the benchmark's fair server).
    @Optional() private readonly rowTrust?: RowTrust,
  ) {}

  /** Rows are read only while what their writers rely on holds (RowTrust). */
  private rowsTrusted(definition: ListDefinition): void {
    this.rowTrust?.assertIntact(definition);
  }

  async page<Q extends ListQuery>(definition: ListDefinition<Q>, caller: ApiCaller, query: Q): Promise<ListedPage> {
    const statements = this.statementsOf(definition);
    const filters = filterValues(definition, query);
    // A cursor belongs to this list of this client: the list, the key's client and tenant, the filters.
    const binding = CursorCodec.binding([
      definition.name,
      caller.tenantId,
      caller.clientId,
      query.storeId,
      filters,
      query.pageSize,
      query.changedSince,
    ]);
    // Every row of the scope, inactive ones included, of a list that can be synced: a walk of it can be a sync basis.
    const syncable = definition.sync !== undefined && statements.active(filters).length === 0;
    // A position belongs to this list of this client (as created: see SyncPositions.binding) and store
    // (a cursor to these filters too).
    const positionParts = [definition.name, caller.tenantId, caller.clientId, query.storeId];
    // A page of a sync walk reads what the client may see now, not what a key cache last saw, and in
    // which snapshot: the position it hands out is not later than that snapshot's horizon. Read once,
    // before a position is decoded: the client's creation is part of what a position is bound to.
    let fresh: Promise<SyncView> | undefined;
    const viewOf = (): Promise<SyncView> => (fresh ??= this.dataScopes.viewForSync(caller, query.storeId));
    // A cursor and a position are checked (400) before the store is (404): parameters come before stores.
    const plan = await this.begin(query, binding, positionParts, viewOf, syncable, caller.deadlineMs);
    const { takeHorizon, caughtUpTo, changedSince } = plan.sync;
    if (!takeHorizon && caughtUpTo === undefined && changedSince === undefined) {
      const scope = await this.dataScopes.resolve(caller, query.storeId);
      const listed = await this.read(definition, { scope, filters, window: plan.window, sync: plan.sync });
      return this.end(plan, binding, listed, null, caller.deadlineMs);
    }
    const synced = await viewOf();
    const view = synced.scope();
    if (changedSince !== undefined && BigInt(changedSince) > BigInt(view.next))
      throw invalidPosition(AHEAD_OF_DATABASE);
    const listed = await this.read(
      definition,
      { scope: view.scope, filters, window: plan.window, sync: plan.sync },
      { ...plan, clientCreated: synced.clientCreated },
    );
    return this.end(plan, binding, listed, view.horizon, caller.deadlineMs);
  }

  /**
   * The data of one page: the total and the page's rows, read on a replica, or on the primary when
   * the replica has not caught up with the sync walk's position. A page of a sync walk (`sync`) reads
   * in one snapshot, guarded first (see readOn).
   */
  async read(definition: ListDefinition, input: ListRead, sync?: SyncPlan): Promise<ListedRows> {
    this.rowsTrusted(definition);
    const statements = this.statementsOf(definition);
    // A page that checks a round's position or hands one out names the primary's start (see primaryAround).
    const guarded = sync !== undefined && sync.position === undefined;
    return (
      (await this.primaryAround(guarded, input.scope.deadlineMs, (started) =>
        this.readOn(statements, input, 'replica', sync, started),
      )) ??
      (await this.readOn(statements, input, 'primary', sync)) ??
      primaryUnavailable()
    );
  }

  /**
   * Every row of the list in scope that matches, as JSON, in its order: the lists that are not
   * paginated (categories, promotions, the names a promotion's description reads).
   */
  async all<Q>(definition: ListDefinition<Q>, scope: DataScope, query: Partial<Q>): Promise<JsonText[]> {
    this.rowsTrusted(definition);
    const input: ListRead = {
      scope,
      filters: filterValues(definition, query),
      window: { pageSize: 0, offset: 0 },
      sync: {},
    };
    const statement = this.statementsOf(definition).all(input);
    const rows = await this.reader.read(scope, { cost: 'expensive' }, (db) =>
      db.tuples<[json: JsonText], ListRead>(statement, input),
    );
    return rows.map(([json]) => json);
  }

  /**
   * A page of a list's removals feed (src/lists/removals.ts): the position checked like a round's
   * (400s before the store's 404), each page in one snapshot, guarded first, on a replica only when it
   * has caught up with the moment this request began (so never behind the round's changes walk, which
   * ended before it), else on the primary. Its Sync-Position repeats the one given: the round's next
   * position is its changes walk's, and a client that stores this one by mistake repeats work, never
   * loses a removal.
   */
  async removals(definition: ListDefinition, caller: ApiCaller, query: RemovalsQuery): Promise<ListedPage> {
    const statements = this.removalStatementsOf(definition);
    const binding = CursorCodec.binding([
      `${definition.name}:removals`,
      caller.tenantId,
      caller.clientId,
      query.storeId,
      query.pageSize,
      query.changedSince,
    ]);
    // The client as it is now (its creation is part of what a position is bound to), then the 400s, then the 404.
    const synced = await this.dataScopes.viewForSync(caller, query.storeId);
    const positionBinding = SyncPositions.binding(
      [definition.name, caller.tenantId, caller.clientId, query.storeId],
      synced.clientCreated,
    );
    const changed = await this.positions.decode(positionBinding, query.changedSince, caller.deadlineMs);
    const state =
      query.cursor === undefined ? undefined : await this.cursors.decode(binding, query.cursor, caller.deadlineMs);
    const view = synced.scope();
    if (BigInt(changed.xact) > BigInt(view.next)) throw invalidPosition(AHEAD_OF_DATABASE);
    const readOn = (server: 'primary' | 'replica', primaryStarted?: string | null): Promise<ListedRows | null> =>
      this.reader.read(view.scope, { cost: 'expensive', server, snapshot: true }, async (db) => {
        const read = await db.syncGuard();
        const guard = withPrimaryStarted(read, primaryStarted);
        this.positions.observe(guard.incarnation);
        // A replica that does not have the client as created yet has not caught up: the primary answers.
        if (server === 'replica' && guard.clientCreated !== synced.clientCreated) return null;
        if (read.serverStarted === null && !replaysRun(guard, primaryStarted ?? startOf(changed, guard))) return null;
        if (server === 'replica' && state === undefined && !honoursRun(changed, guard)) return null;
        if (state === undefined) refuseUnsafe(changed, guard);
        // Every page: pruning that ran since the walk began may have deleted records this page would list
        // (it moves the boundary past them in the same statement), and the round's next position is later.
        else if (BigInt(changed.xact) <= BigInt(guard.prunedThrough)) throw invalidPosition(REFUSED.pruned);
        if (server === 'replica' && BigInt(guard.horizon) < BigInt(view.horizon)) return null;
        const input: RemovalsRead = {
          scope: guard.scope,
          storeId: query.storeId,
          since: changed.xact,
          pageSize: query.pageSize,
          afterId: state?.afterId,
        };
        const [{ total }] = await db.rows<{ total: number }, RemovalsRead>(statements.count(input), input);
        const found = await db.tuples<[id: string, json: JsonText], RemovalsRead>(statements.page(input), input);
        const rows = found.slice(0, query.pageSize);
        return {
          total,
          rows: rows.map(([, json]) => json),
          lastId: rows.at(-1)?.[0] ?? null,
          hasNext: found.length > query.pageSize,
          horizon: guard.horizon,
        };
      });
    const listed =
      (await this.primaryAround(state === undefined, caller.deadlineMs, (started) => readOn('replica', started))) ??
      (await readOn('primary')) ??
      primaryUnavailable();
    const page = state?.page ?? 1;
    const nextCursor =
      listed.hasNext && listed.lastId !== null
        ? await this.cursors.encode(binding, { afterId: listed.lastId, page: page + 1 }, caller.deadlineMs)
        : null;
    return {
      body: pageBody(listed.rows, page, query.pageSize, listed.total),
      nextCursor,
      syncPosition: query.changedSince,
    };
  }

  /** One row of the list by id, active or not; a 404 when there is none in the caller's scope. */
  async one(definition: ListDefinition, caller: ApiCaller, id: string): Promise<JsonText> {
    const row = await this.findOne(definition, await this.dataScopes.resolve(caller), id);
    if (row === undefined) throw ApiError.notFound();
    return row;
  }

  /** One row of the list in scope by id, active or not; undefined when there is none. */
  async findOne(definition: ListDefinition, scope: DataScope, id: string): Promise<JsonText | undefined> {
    this.rowsTrusted(definition);
    const input: OneInput = { scope, id };
    const statement = this.byIdOf(definition).for(input);
    const rows = await this.reader.read(scope, { cost: 'cheap' }, (db) =>
      db.rows<{ json: JsonText }, OneInput>(statement, input),
    );
    return rows[0]?.json;
  }

  private removalStatementsOf(definition: ListDefinition): RemovalStatements {
    let found = this.removalStatements.get(definition);
    if (found === undefined) {
      if (definition.sync === undefined) throw new Error(`${definition.name} is not synced: it has no removals feed`);
      found = new RemovalStatements(definition as SyncedListDefinition);
      this.removalStatements.set(definition, found);
    }
    return found;
  }

  private statementsOf(definition: ListDefinition): ListStatements {
    let found = this.statements.get(definition);
    if (found === undefined) {
      found = new ListStatements(definition);
      this.statements.set(definition, found);
    }
    return found;
  }

  private byIdOf(d: ListDefinition): Shapes<OneInput> {
    let found = this.byId.get(d);
    if (found === undefined) {
      found = new Shapes<OneInput>(
        (i) => scopeShape(i.scope),
        scoped((i, sql, scope) => {
          const where = scope.on(d.from.table, d.from.alias);
          return sql.build(
            `SELECT ${rowJson(d)} AS json
  FROM ${d.from.table} ${d.from.alias}${rowJoins(d, scope)}
 WHERE ${where} AND ${d.key} = ${sql.param((x) => x.id)}`,
          );
        }),
      );
      this.byId.set(d, found);
    }
    return found;
  }

  private async begin(
    query: ListQuery,
    binding: string,
    positionParts: readonly unknown[],
    viewOf: () => Promise<SyncView>,
    syncable: boolean,
    deadlineMs: number,
  ): Promise<PagePlan> {
    const decode = async (position: string): Promise<DecodedPosition> => {
      const positionBinding = SyncPositions.binding(positionParts, (await viewOf()).clientCreated);
      return this.positions.decode(positionBinding, position, deadlineMs);
    };
    const changedSince = query.changedSince === undefined ? undefined : await decode(query.changedSince);
    if (query.cursor !== undefined) {
      const state = await this.cursors.decode(binding, query.cursor, deadlineMs);
      const caughtUpTo = state.position === undefined ? undefined : await decode(state.position);
      return {
        window: { pageSize: query.pageSize, offset: 0, afterId: state.afterId },
        page: state.page,
        sync: { changedSince: changedSince?.xact, caughtUpTo: caughtUpTo?.xact },
        positionParts,
        position: state.position,
        changed: changedSince,
        walk: caughtUpTo,
      };
    }
    const page = query.page ?? 1;
    return {
      window: { pageSize: query.pageSize, offset: (page - 1) * query.pageSize },
      page,
      sync: { changedSince: changedSince?.xact, takeHorizon: syncable && query.page === undefined },
      positionParts,
      changed: changedSince,
    };
  }

  /**
   * The page, or null when the server has not caught up with the sync walk's position. A page of a
   * sync walk reads in one snapshot: first the guard (which positions this database may honour, and
   * the stores the client may see in the snapshot, to which the scope narrows), then the changed
   * parents, the count with the horizon, and the rows.
   */
  private readOn(
    statements: ListStatements,
    given: ListRead,
    server: 'primary' | 'replica',
    sync?: SyncPlan,
    primaryStarted?: string | null,
  ): Promise<ListedRows | null> {
    const options = { cost: statements.cost(given), server, snapshot: sync !== undefined };
    return this.reader.read(given.scope, options, async (db) => {
      let input = given;
      let incarnation: string | undefined;
      let clientCreated: string | undefined;
      let serverStarted: string | null | undefined;
      if (sync !== undefined) {
        const read = await db.syncGuard();
        const guard = withPrimaryStarted(read, primaryStarted);
        this.positions.observe(guard.incarnation);
        // A replica that does not have the client as created yet has not caught up: the primary answers.
        if (server === 'replica' && guard.clientCreated !== sync.clientCreated) return null;
        if (read.serverStarted === null && !replaysRun(guard, primaryStarted ?? startOf(sync.walk, guard))) return null;
        // A restart the operator vouched for may not have reached a lagging standby: the primary decides.
        if (
          server === 'replica' &&
          sync.changed !== undefined &&
          sync.position === undefined &&
          !honoursRun(sync.changed, guard)
        )
          return null;
        // On a round's first page: its later pages go on with the walk (a position voided meanwhile
        // is refused to the next round, which starts from this walk's position, taken before).
        if (sync.changed !== undefined && sync.position === undefined) refuseUnsafe(sync.changed, guard);
        incarnation = guard.incarnation;
        clientCreated = guard.clientCreated;
        serverStarted = guard.serverStarted;
        input = { ...input, scope: guard.scope };
      }
      // The parents changed since the position: their rows are in the round too. A list of rows of
      // the whole tenant may have none (no client view: its rows belong to no store).
      if (input.sync.changedSince !== undefined && statements.parentInputs.length > 0) {
        const [found] = await db.rows<Record<string, string[]>, ListRead>(statements.parents(input), input);
        const parents = statements.parentInputs.map((_, n) => found[`p${n}`]);
        input = { ...input, sync: { ...input.sync, parents } };
      }
      const [{ total, horizon = null }] = await db.rows<{ total: number; horizon?: string }, ListRead>(
        statements.count(input),
        input,
      );
      const { caughtUpTo } = input.sync;
      if (server === 'replica' && caughtUpTo !== undefined && BigInt(horizon!) < BigInt(caughtUpTo)) return null;
      const { window } = input;
      if (window.afterId === undefined && window.offset >= total) {
        return { total, rows: [], lastId: null, hasNext: false, horizon, incarnation, clientCreated, serverStarted };
      }
      const found = await db.tuples<[id: string, json: JsonText], ListRead>(statements.page(input), input);
      const rows = found.slice(0, window.pageSize);
      return {
        total,
        rows: rows.map(([, json]) => json),
        lastId: rows.at(-1)?.[0] ?? null,
        hasNext: found.length > window.pageSize,
        horizon,
        incarnation,
        clientCreated,
        serverStarted,
      };
    });
  }

  /**
   * A read on a replica that checks a round's position or hands one out (`guarded`) reaches a standby
   * whose own start says nothing of its primary's: it is given the primary's start as read before it,
   * and counts only when the primary's start is the same after it (the standby replayed that server's
   * history, and no start came in between); else null, and the primary answers. Without replicas a
   * `replica` read is the primary's, whose guard reads its own start in the page's snapshot.
   */
  private async primaryAround<T>(
    guarded: boolean,
    deadlineMs: number,
    read: (primaryStarted: string | null | undefined) => Promise<T | null>,
  ): Promise<T | null> {
    if (!guarded || !this.database.readsStandbys) return read(undefined);
    const before = await this.database.primaryStarted(deadlineMs);
    const found = await read(before);
    if (found === null) return null;
    return (await this.database.primaryStarted(deadlineMs)) === before ? found : null;
  }

  /**
   * The page's body and cursor, and on a sync walk its position: carried by the cursor, or taken now
   * when the walk begins, as the older of the read's horizon and the client view's (`viewHorizon`),
   * sealed for the client as its snapshot has it (its creation: the one whose view the page read).
   */
  private async end(
    plan: PagePlan,
    binding: string,
    listed: ListedRows,
    viewHorizon: string | null,
    deadlineMs: number,
  ): Promise<ListedPage> {
    let position = plan.position;
    if (
      position === undefined &&
      plan.sync.takeHorizon &&
      listed.horizon !== null &&
      viewHorizon !== null &&
      listed.incarnation !== undefined &&
      listed.clientCreated !== undefined
    ) {
      const taken = BigInt(listed.horizon) < BigInt(viewHorizon) ? listed.horizon : viewHorizon;
      const positionBinding = SyncPositions.binding(plan.positionParts, listed.clientCreated);
      // No primary's start to name (a standby behind DATABASE_URL): a position never honoured.
      const started = listed.serverStarted ?? '0';
      position = await this.positions.encode(positionBinding, listed.incarnation, taken, started, deadlineMs);
    }
    const nextCursor =
      listed.hasNext && listed.lastId !== null
        ? await this.cursors.encode(binding, { afterId: listed.lastId, page: plan.page + 1, position }, deadlineMs)
        : null;
    return {
      body: pageBody(listed.rows, plan.page, plan.window.pageSize, listed.total),
      nextCursor,
      syncPosition: position ?? null,
    };
  }
}

/**
 * A position is honoured only by the database it names, while every trigger fires as declared, when
 * nothing that marks no rows happened since, and only for the client it was handed out to, not an
 * earlier one of its id (docs/sync.md#when-a-position-is-refused).
 */
function refuseUnsafe(position: DecodedPosition, guard: SyncGuard): void {
  const database = position.incarnation ?? guard.legacyIncarnation;
  if (database !== guard.incarnation) throw invalidPosition(REFUSED.otherDatabase);
  // The primary has run without a stop since the position was handed out, so its data cannot have gone
  // back to an earlier copy of its files (SERVER_STARTED_SQL in src/schema/sync-state.ts), or an
  // operator said that each start since continued the one before.
  if (!honoursRun(position, guard)) throw invalidPosition(REFUSED.restarted);
  if (!guard.triggersOk) throw invalidPosition(REFUSED.triggersOff);
  if (BigInt(position.xact) <= BigInt(guard.voidThrough)) throw invalidPosition(REFUSED.voided);
  if (BigInt(position.xact) <= BigInt(guard.prunedThrough)) throw invalidPosition(REFUSED.pruned);
  // Sealed for the client's creation (SyncPositions.binding): it must be this snapshot's client (the
  // client may have been made again since it was decoded). Sealed without it (a client made before
  // created_xact was kept, a version before, a bare sp_<transaction>): a position not later than this
  // client's creation may be an earlier client's, and what that one saw and lost is not recorded for
  // this one. (Such a position handed out to this very client by an earlier version while a write
  // transaction older than the client was open is refused too: it cannot be told from one.)
  const earlier =
    position.clientCreated !== null
      ? position.clientCreated !== guard.clientCreated
      : BigInt(position.xact) <= BigInt(guard.clientCreated);
  if (earlier) throw invalidPosition(REFUSED.clientRecreated);
}

/**
 * DATABASE_URL reached a server in recovery (a failover or switchover under way, a pooler that sends
 * read-only transactions to standbys): no run of a primary to check a position against or seal one
 * with. A 503 with Retry-After, as when the service is full: the next try may reach the primary.
 */
function primaryUnavailable(): never {
  throw new DatabaseOverloadedError(1);
}

/** The run of the primary a position was handed out under (positions of earlier versions: the migration's). */
function startOf(position: DecodedPosition | undefined, guard: SyncGuard): string | undefined {
  return position === undefined ? undefined : (position.serverStarted ?? guard.legacyServerStarted);
}

/** Whether the primary's current run is the position's, or continues it (the operator's word). */
function honoursRun(position: DecodedPosition, guard: SyncGuard): boolean {
  return continuesFrom(guard.serverStarted, startOf(position, guard)!, guard.continuedStarts);
}

/**
 * Whether a standby's snapshot holds the record of the primary's run `run` (written during that
 * run): it replays that run's history, not one the primary lost (a standby stranded when the primary
 * was started from a copy of its files). Its record comes within seconds of the run's start; until
 * then, and on a stranded standby, the primary answers.
 */
function replaysRun(guard: SyncGuard, run: string | null | undefined): boolean {
  return run !== null && run !== undefined && guard.latestStart === run;
}

/**
 * Whether the primary's start `now` is `then`, or continues it along the starts an operator said
 * continue the one before (`continued`: a start, the start it continues).
 */
function continuesFrom(now: string | null, then: string, continued: Readonly<Record<string, string>>): boolean {
  const seen = new Set<string>();
  for (let at = now; at !== null && at !== undefined && !seen.has(at); at = continued[at]) {
    if (at === then) return true;
    seen.add(at);
  }
  return false;
}

/**
 * The guard of a read on a standby names the primary's start read around the read (primaryAround);
 * on the primary, its own.
 */
function withPrimaryStarted(guard: SyncGuard, primaryStarted: string | null | undefined): SyncGuard {
  return guard.serverStarted !== null || primaryStarted === undefined
    ? guard
    : { ...guard, serverStarted: primaryStarted };
}

/**
 * The filters' values of a request, in the definition's order (what a cursor is bound to). The
 * definition's filters are keyed by the query's properties (Filters<Q>), so every name is one of them.
 */
export function filterValues<Q>(definition: ListDefinition<Q>, query: Partial<Q>): FilterValues {
  const values: Record<string, unknown> = {};
  const filters = definition.filters as Readonly<Record<string, FilterDefinition>>;
  for (const [name, filter] of Object.entries(filters)) {
    const given = query[name as keyof Q];
    values[name] = filter.value === undefined ? given : filter.value(given);
  }
  return values;
}

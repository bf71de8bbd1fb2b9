import { Inject, Injectable, type OnModuleDestroy, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import pg, { type Pool, type PoolClient } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { AdmissionRefused, type Cost, FairScheduler } from '../admission/fair-scheduler.js';
import { ADMISSION_REFUSALS, type AdmissionRefusals } from '../admission/refusals.js';
import { DatabaseBusyError, DatabaseDeadlineError, DatabaseOverloadedError } from './deadline.js';
import type { Statement } from './statement.js';

export interface ReadOptions {
  readonly cost: Cost;
  /** The API client a read counts against (its share of the pool); none for the service's own reads. */
  readonly client?: string;
  /**
   * `replica` (the default) reads from a read replica when DATABASE_REPLICA_URLS names any; key
   * lookups and store checks read the primary, so that a revocation is never hidden by lag.
   */
  readonly server?: 'primary' | 'replica';
  /**
   * Every statement of the read in one snapshot (REPEATABLE READ READ ONLY): what a page of a sync
   * round reads (its guard, the changed parents, the count, the horizon, the rows) comes from one
   * moment of the database, on the primary or on a replica replaying in between.
   */
  readonly snapshot?: boolean;
}

/** The statements of one request's read, on one connection. */
export interface ReadSession {
  rows<R>(statement: Pick<Statement, 'text' | 'name'>, values: readonly unknown[]): Promise<R[]>;

  /**
   * The rows as arrays, in the order of the select list (pg's array row mode), for reads of many rows.
   * pg builds an object row by spreading a template made for each statement's columns: one spread
   * for every statement of the process, which the many statements' shapes make megamorphic (V8's slow
   * clone, then a keyed store per column), about 7% of a categories read's node CPU on Node 20 and 12%
   * on Node 26 (docs/performance.md#rows-as-arrays). An array row has no shape to vary.
   */
  tuples<R extends readonly unknown[]>(
    statement: Pick<Statement, 'text' | 'name'>,
    values: readonly unknown[],
  ): Promise<R[]>;
}

/** A read in progress, watched until its deadline. */
interface Watched {
  readonly deadlineMs: number;
  expire(): void;
}

/** How often the watchdog looks for reads past their deadline. */
const WATCH_INTERVAL_MS = 50;

/**
 * How long a statement past its deadline may take to end once cancelled (and the cancel request to
 * be processed) before its connection is destroyed instead: only a server that does not answer at
 * all (frozen, unreachable) takes that long.
 */
const CANCEL_GRACE_MS = 2000;

/**
 * The one way the request path reaches PostgreSQL: TypeORM's pools (the primary and the replicas),
 * one connection per read, every wait bounded by the request's deadline on this side too, so that a
 * frozen or overloaded database ends a request promptly instead of in a hung socket (the server-side
 * statement_timeout cannot help when the server itself is frozen). Every read is admitted to its
 * pool's connections by a FairScheduler first (its lane by `Cost`, its share by client), or refused
 * at once with DatabaseBusyError (a 429) or DatabaseOverloadedError (a 503): the pool's own queue is
 * never used, so that no read waits unbounded there and fails at its deadline.
 *
 * A watchdog that runs a few times a second (a request pays for no timer of its own) ends a read past
 * its deadline at once, and cancels its statement in PostgreSQL with a cancel request: the database
 * never goes on running statements nobody waits for. The connection, and the read's permit, go back
 * only once the statement has ended (it is reused, so the pool opens no replacement while the old
 * statement still runs); a connection whose statement does not end within CANCEL_GRACE_MS is
 * destroyed. Repositories are the only callers; see src/tenancy/scoped-reader.ts for the tenant
 * boundary.
 */
@Injectable()
export class SqlReader implements OnModuleDestroy {
  private readonly schedulers = new Map<Pool, FairScheduler>();
  private readonly watched = new Set<Watched>();
  private readonly watchdog = setInterval(() => this.expireOverdue(), WATCH_INTERVAL_MS).unref();
  /**
   * A named statement is prepared on one server connection; a pooler in transaction mode may run the
   * next use on another, which has never seen it (PgBouncer before 1.21 keeps no track of them).
   */
  private get namedStatements(): boolean {
    return this.config.dbPooler !== 'transaction';
  }

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    // Absent in the command-line tools, which serve no requests.
    @Optional() @Inject(ADMISSION_REFUSALS) private readonly refusals?: AdmissionRefusals,
  ) {}

  /** Runs `work` on one connection, within `deadlineMs` (epoch milliseconds) for every wait. */
  async read<T>(deadlineMs: number, options: ReadOptions, work: (session: ReadSession) => Promise<T>): Promise<T> {
    const pool = this.pool(options.server ?? 'replica');
    const scheduler = this.scheduler(pool);
    const client = options.client ?? '';
    const lane = options.cost;
    // Most reads start at once: no promise to wait for then.
    if (!scheduler.tryAcquire(client, lane))
      await scheduler.acquire(client, lane, deadlineMs).catch((error: unknown) => this.refused(error));
    let checkout: Checkout;
    try {
      checkout = new Checkout(await this.connect(pool, deadlineMs), deadlineMs, this.namedStatements);
    } catch (error) {
      scheduler.release(client, lane);
      throw error;
    }
    this.watched.add(checkout);
    try {
      if (options.snapshot) await checkout.begin();
      const result = await work(checkout);
      if (options.snapshot) await checkout.end();
      return result;
    } finally {
      this.watched.delete(checkout);
      // The permit goes back with the connection: not while a cancelled statement still holds it.
      const given = checkout.giveBack();
      if (given === null) scheduler.release(client, lane);
      else void given.then(() => scheduler.release(client, lane));
    }
  }

  /** Whether DATABASE_REPLICA_URLS names replicas: a `replica` read may then reach a standby. */
  get readsReplicas(): boolean {
    return ((this.dataSource.driver as PostgresDriver).slaves ?? []).length > 0;
  }

  /** A refusal of admission is a 429 (the client is over its share) or a 503 (the service is full). */
  private refused(error: unknown): never {
    if (!(error instanceof AdmissionRefused)) throw error;
    this.refusals?.countAdmissionRefused(error.refusal);
    throw error.refusal === 'client'
      ? new DatabaseBusyError(RETRY_AFTER_SECONDS)
      : new DatabaseOverloadedError(RETRY_AFTER_SECONDS);
  }

  /**
   * Opens every connection of every pool now (the primary's and each replica's), so that the first
   * burst after a start waits for no connection to be made (docs/rate-limits.md#overload).
   */
  async warmUp(deadlineMs: number): Promise<void> {
    const driver = this.dataSource.driver as PostgresDriver;
    const pools = [driver.master as Pool, ...((driver.slaves ?? []) as Pool[])].map(listened);
    await Promise.all(
      pools.map(async (pool) => {
        const clients = await Promise.all(
          Array.from({ length: this.config.dbPoolSize }, () => this.connect(pool, deadlineMs)),
        );
        for (const client of clients) client.release();
      }),
    );
  }

  onModuleDestroy(): void {
    clearInterval(this.watchdog);
  }

  private expireOverdue(): void {
    const now = Date.now();
    for (const watch of this.watched) {
      if (now >= watch.deadlineMs) {
        this.watched.delete(watch);
        watch.expire();
      }
    }
  }

  /** A connection of the pool, or a DatabaseDeadlineError when none comes before the deadline. */
  private connect(pool: Pool, deadlineMs: number): Promise<PoolClient> {
    // The request spent its budget in the service's own queues before asking the database for anything
    // (a pipelined flood's requests wait their turn on their connection): the overload's 503, as the
    // request gate would have answered, not a 500.
    if (Date.now() >= deadlineMs) return Promise.reject(new DatabaseOverloadedError(RETRY_AFTER_SECONDS));
    // An idle connection is handed over at once: nothing to watch (and no promise of an async function around pg's).
    if (pool.idleCount > 0) return pool.connect();
    return this.connectWatched(pool, deadlineMs);
  }

  private async connectWatched(pool: Pool, deadlineMs: number): Promise<PoolClient> {
    const pending = pool.connect();
    let watch: Watched | undefined;
    const overdue = new Promise<never>((_, reject) => {
      watch = {
        deadlineMs,
        expire: () => reject(new DatabaseDeadlineError('no database connection before the deadline')),
      };
      this.watched.add(watch);
    });
    try {
      return await Promise.race([pending, overdue]);
    } catch (error) {
      // A connection that arrives after the deadline goes straight back to the pool.
      pending.then(
        (client) => client.release(),
        () => undefined,
      );
      throw error;
    } finally {
      this.watched.delete(watch!);
    }
  }

  private pool(server: 'primary' | 'replica'): Pool {
    const driver = this.dataSource.driver as PostgresDriver;
    const replicas = (driver.slaves ?? []) as Pool[];
    const pool =
      server === 'replica' && replicas.length > 0
        ? replicas[Math.floor(Math.random() * replicas.length)]
        : (driver.master as Pool);
    return listened(pool);
  }

  private scheduler(pool: Pool): FairScheduler {
    let scheduler = this.schedulers.get(pool);
    if (scheduler === undefined) {
      const c = this.config;
      scheduler = new FairScheduler({
        capacity: c.dbPoolSize,
        expensive: c.admissionExpensiveReads,
        expensiveAlone: c.admissionExpensiveReadsAlone,
        expensivePerClient: c.admissionExpensivePerClient,
        waitMs: c.admissionWaitMs,
        targetMs: c.admissionQueueTargetMs,
        intervalMs: QUEUE_INTERVAL_MS,
        queuePerClient: c.admissionQueuePerClient,
        queueLimit: c.admissionQueueLimit,
      });
      this.schedulers.set(pool, scheduler);
    }
    return scheduler;
  }
}

const BEGIN_SNAPSHOT = { text: 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', name: undefined };
const COMMIT_SNAPSHOT = { text: 'COMMIT', name: undefined };
const END_SNAPSHOT = { text: 'ROLLBACK', name: undefined };

/**
 * How long a lane's queue must stand without emptying before its waits are cut to the target
 * (CoDel's interval, and Facebook's adaptive queue timeouts' 100 ms).
 */
const QUEUE_INTERVAL_MS = 100;

/**
 * What a refused read is told: statements last up to seconds, capacity frees up within one. The
 * request gate's sheds say the same (src/app.setup.ts).
 */
export const RETRY_AFTER_SECONDS = 1;

const noop = (): void => undefined;

/** A pg client's connection parameters and the key of its backend (what a cancel request needs). */
interface BackendKey {
  readonly host: string;
  readonly port: number;
  readonly processID: number;
  readonly secretKey: number;
}

/** A read's connection: its statements, and the one in flight cancelled when the deadline passes. */
class Checkout implements Watched, ReadSession {
  private expired = false;
  private inFlight = false;
  /** Settles when the statement in flight (or the last one) has ended in PostgreSQL. */
  private last: Promise<void> | null = null;
  /** Rejects the statement in flight: its caller is answered at the deadline, not when it ends. */
  private fail: ((error: Error) => void) | null = null;
  /** Settles once the cancel request has been processed (or given up). */
  private cancelled: Promise<void> | null = null;
  /** A transaction is open on the connection: it goes back to the pool only once it has ended. */
  private inTransaction = false;

  constructor(
    private readonly client: PoolClient,
    readonly deadlineMs: number,
    private readonly named: boolean,
  ) {
    listenForErrors(client);
  }

  rows<R>(statement: Pick<Statement, 'text' | 'name'>, values: readonly unknown[]): Promise<R[]> {
    return this.run<R>(statement, values, false);
  }

  tuples<R extends readonly unknown[]>(
    statement: Pick<Statement, 'text' | 'name'>,
    values: readonly unknown[],
  ): Promise<R[]> {
    return this.run<R>(statement, values, true);
  }

  private run<R>(
    statement: Pick<Statement, 'text' | 'name'>,
    values: readonly unknown[],
    arrays: boolean,
  ): Promise<R[]> {
    if (this.expired || Date.now() >= this.deadlineMs)
      return Promise.reject(new DatabaseDeadlineError('the request deadline passed before a statement'));
    this.inFlight = true;
    let ended!: () => void;
    this.last = new Promise<void>((resolve) => (ended = resolve));
    // One promise of its own per statement (a read is answered with it at the deadline, `expire`), and
    // pg's callback form: its promise form made every request's objects survive two young-generation
    // collections on Node 26, promoting about 0.8 KB a request into the old generation
    // (docs/performance.md#what-pgs-promise-form-cost).
    return new Promise<R[]>((resolve, reject) => {
      this.fail = reject;
      const done = (error: Error | null, result?: { rows: unknown[] }): void => {
        this.inFlight = false;
        ended();
        if (error === null) resolve(result!.rows as R[]);
        else
          reject(
            this.expired
              ? new DatabaseDeadlineError('a statement outlived the request deadline', { cause: error })
              : error,
          );
      };
      try {
        // A Query made from the text, then named: pg copies a config object's every property
        // descriptor into a new object (`cloneQueryConfig`), about 4 µs a statement on Node 26. The
        // array row mode is only a config's, paid for by the rows it reads (tuples: lists of many).
        const callback = (error: Error | undefined, result: unknown) =>
          done(error ?? null, result as { rows: unknown[] });
        const config: string | pg.QueryArrayConfig = arrays
          ? { text: statement.text, rowMode: 'array' }
          : statement.text;
        const query = new pg.Query(config, values as unknown[], callback);
        if (this.named && statement.name !== undefined) (query as { name?: string }).name = statement.name;
        this.client.query(query);
      } catch (error) {
        done(error as Error);
      }
    });
  }

  async begin(): Promise<void> {
    this.inTransaction = true;
    await this.rows(BEGIN_SNAPSHOT, []);
  }

  /** Read only: committing it is all the same as rolling it back (and counted as a commit). */
  async end(): Promise<void> {
    await this.rows(COMMIT_SNAPSHOT, []);
    this.inTransaction = false;
  }

  /** At the deadline: the read ends now, and its statement is cancelled in PostgreSQL. */
  expire(): void {
    this.expired = true;
    if (!this.inFlight) return;
    this.cancelled = cancelStatement(this.client as unknown as BackendKey);
    this.fail?.(new DatabaseDeadlineError('a statement outlived the request deadline'));
  }

  /**
   * Gives the connection back to the pool: at once (null) when no statement was cut short; else once
   * the cancelled statement has ended and the cancel request has been processed (so that it cannot
   * cancel the next statement on this connection), or destroyed after CANCEL_GRACE_MS.
   */
  giveBack(): Promise<void> | null {
    if (this.cancelled === null && !this.inFlight && !this.inTransaction) {
      this.client.release();
      return null;
    }
    if (this.cancelled === null && !this.inFlight && !this.expired) {
      // A read that failed inside its transaction (a refused position, a statement's error).
      const ended = this.client.query(END_SNAPSHOT.text).then(
        () => true,
        () => false,
      );
      return within(ended, CANCEL_GRACE_MS, false).then((clean) =>
        this.client.release(clean ? undefined : new DatabaseDeadlineError('its transaction did not end')),
      );
    }
    const running = this.last?.then(noop, noop);
    const ended = Promise.all([running, this.cancelled]).then(() => true);
    return within(ended, CANCEL_GRACE_MS, false).then((clean) => {
      // A cancelled statement left its transaction aborted: the connection goes rather than wait more.
      if (clean && !this.inTransaction) return this.client.release();
      // The statement outlived its cancellation (a server that does not answer): the connection goes
      // (its 'error' event is listened to since the read took it: listenForErrors).
      this.client.release(new DatabaseDeadlineError('its statement outlived the deadline and its cancellation'));
    });
  }
}

/** The pool's clients that have a listener of their own for 'error' (see `listenForErrors`). */
const listening = new WeakSet<PoolClient>();
/** The pools whose new clients get that listener as they connect. */
const listenedPools = new WeakSet<Pool>();

/**
 * pg-pool listens for a client's 'error' only while the client is idle in the pool. A connection that
 * fails while a read holds it (PostgreSQL restarted or failed over, `pg_terminate_backend`, a reset)
 * emits 'error' on its client, and with nobody listening that event ends the process, failing every
 * request in flight. The failure reaches the read anyway: its statement in flight is rejected, a later
 * one is refused (the client is no longer queryable), and pg-pool discards the client when it is
 * released. One listener per client, added as the pool connects it (a client the pool made before
 * SqlReader first saw the pool gets it the first time a read holds it).
 */
function listenForErrors(client: PoolClient): void {
  if (listening.has(client)) return;
  listening.add(client);
  client.on('error', () => undefined);
}

/** The pool, its new clients listened to for 'error' from their creation (see `listenForErrors`). */
function listened(pool: Pool): Pool {
  if (!listenedPools.has(pool)) {
    listenedPools.add(pool);
    // From its creation: a new connection can be handed out and fail within one read of its socket.
    pool.on('connect', listenForErrors);
  }
  return pool;
}

/** `promise`'s value, or `otherwise` after `ms`. */
function within<T>(promise: Promise<T>, ms: number, otherwise: T): Promise<T> {
  let timer: NodeJS.Timeout;
  const late = new Promise<T>((resolve) => (timer = setTimeout(() => resolve(otherwise), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * Sends PostgreSQL's cancel request for the backend's statement, on a connection of its own (the
 * protocol's way: pg's Connection writes the message). Settles when the server has processed it and
 * closed that connection, or after CANCEL_GRACE_MS (a server that does not answer); never rejects.
 */
function cancelStatement(backend: BackendKey): Promise<void> {
  return new Promise<void>((resolve) => {
    const connection = new pg.Connection() as pg.Connection & {
      connect(portOrPath: number | string, host?: string): void;
      cancel(processID: number, secretKey: number): void;
    };
    const done = (): void => {
      clearTimeout(timer);
      connection.stream.destroy();
      resolve();
    };
    const timer = setTimeout(done, CANCEL_GRACE_MS);
    connection.on('error', done);
    connection.stream.on('close', done);
    connection.on('connect', () => connection.cancel(backend.processID, backend.secretKey));
    if (backend.host?.startsWith('/')) connection.connect(`${backend.host}/.s.PGSQL.${backend.port}`);
    else connection.connect(backend.port, backend.host);
  });
}

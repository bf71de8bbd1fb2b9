import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool, PoolClient } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { DatabaseDeadlineError } from './deadline.js';
import { Permits } from './permits.js';
import type { Statement } from './statement.js';

/**
 * Which connections a read may take. `light` reads (a key, a store, one product by id) may use every
 * connection of a pool; `heavy` reads (lists and searches) leave `LIGHT_RESERVE` of them free, so
 * that cheap requests are still answered while expensive ones saturate the pool.
 */
export type Lane = 'light' | 'heavy';
export const LIGHT_RESERVE = 2;

export interface ReadOptions {
  readonly lane: Lane;
  /**
   * `replica` (the default) reads from a read replica when DATABASE_REPLICA_URLS names any; key
   * lookups and store checks read the primary, so that a revocation is never hidden by lag.
   */
  readonly server?: 'primary' | 'replica';
}

/** The statements of one request's read, on one connection. */
export interface ReadSession {
  rows<R>(statement: Pick<Statement, 'text' | 'name'>, values: readonly unknown[]): Promise<R[]>;
}

/** A read in progress, watched until its deadline. */
interface Watched {
  readonly deadlineMs: number;
  expire(): void;
}

/** How often the watchdog looks for reads past their deadline. */
const WATCH_INTERVAL_MS = 50;

/**
 * The one way the request path reaches PostgreSQL: TypeORM's pools (the primary and the replicas),
 * one connection per read, every wait bounded by the request's deadline on this side too, so that a
 * frozen or overloaded database ends a request in a prompt 500 instead of a hung socket (the
 * server-side statement_timeout cannot help when the server itself is frozen). A read past its
 * deadline has its connection destroyed (the statement may still be running on it) by a watchdog
 * that runs a few times a second: a request pays for no timer of its own. Repositories are the only
 * callers; see src/tenancy/scoped-reader.ts for the tenant boundary.
 */
@Injectable()
export class SqlReader implements OnModuleDestroy {
  private readonly lanes = new Map<Pool, Permits>();
  private readonly watched = new Set<Watched>();
  private readonly watchdog = setInterval(() => this.expireOverdue(), WATCH_INTERVAL_MS).unref();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Runs `work` on one connection, within `deadlineMs` (epoch milliseconds) for every wait. */
  async read<T>(deadlineMs: number, options: ReadOptions, work: (session: ReadSession) => Promise<T>): Promise<T> {
    const pool = this.pool(options.server ?? 'replica');
    const heavy = options.lane === 'heavy' ? this.heavyPermits(pool) : null;
    if (heavy) await heavy.acquire(deadlineMs);
    try {
      const client = await this.connect(pool, deadlineMs);
      let expired = false;
      const watch: Watched = {
        deadlineMs,
        expire: () => {
          expired = true;
          // The statement on it may still run (or the server is frozen): the connection goes. Its
          // statement fails at once, and so does the client, which would otherwise end the process
          // with an 'error' event nobody listens to (pg-pool listens only to idle clients).
          client.on('error', () => undefined);
          (client as PoolClient & { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
        },
      };
      this.watched.add(watch);
      try {
        return await work({
          rows: async <R>(statement: Pick<Statement, 'text' | 'name'>, values: readonly unknown[]): Promise<R[]> => {
            if (Date.now() >= deadlineMs)
              throw new DatabaseDeadlineError('the request deadline passed before a statement');
            try {
              const result = await client.query({
                text: statement.text,
                name: statement.name,
                values: values as unknown[],
              });
              return result.rows as R[];
            } catch (error) {
              if (expired)
                throw new DatabaseDeadlineError('a statement outlived the request deadline', { cause: error });
              throw error;
            }
          },
        });
      } finally {
        this.watched.delete(watch);
        client.release(expired ? new DatabaseDeadlineError('destroyed at the deadline') : undefined);
      }
    } finally {
      heavy?.release();
    }
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
  private async connect(pool: Pool, deadlineMs: number): Promise<PoolClient> {
    if (Date.now() >= deadlineMs) throw new DatabaseDeadlineError('the request deadline passed before a connection');
    // An idle connection is handed over at once: nothing to watch.
    if (pool.idleCount > 0) return pool.connect();
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
    if (server === 'replica' && replicas.length > 0) return replicas[Math.floor(Math.random() * replicas.length)];
    return driver.master as Pool;
  }

  private heavyPermits(pool: Pool): Permits {
    let permits = this.lanes.get(pool);
    if (permits === undefined) {
      const size = this.config.dbPoolSize;
      permits = new Permits(Math.max(1, size - Math.min(LIGHT_RESERVE, size - 1)));
      this.lanes.set(pool, permits);
    }
    return permits;
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool, PoolClient, QueryConfig } from 'pg';
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

const QUERY_READ_TIMEOUT = 'Query read timeout';

/**
 * The one way the request path reaches PostgreSQL: TypeORM's pools (the primary and the replicas),
 * one connection per read, every wait and every statement bounded by the request's deadline on this
 * side too, so that a frozen or overloaded database ends a request in a prompt 500 instead of a hung
 * socket (the server-side statement_timeout cannot help when the server itself is frozen).
 * Repositories are the only callers; see src/tenancy/data-scope.ts for the tenant boundary.
 */
@Injectable()
export class SqlReader {
  private readonly lanes = new Map<Pool, Permits>();

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
      const client = await connect(pool, deadlineMs);
      let broken: Error | undefined;
      try {
        return await work({
          rows: async <R>(statement: Pick<Statement, 'text' | 'name'>, values: readonly unknown[]): Promise<R[]> => {
            const remaining = deadlineMs - Date.now();
            if (remaining <= 0) throw new DatabaseDeadlineError('the request deadline passed before a statement');
            try {
              // query_timeout is pg's client-side bound (not in @types/pg's QueryConfig).
              const config = {
                text: statement.text,
                name: statement.name,
                values: values as unknown[],
                query_timeout: remaining,
              };
              const result = await client.query(config as QueryConfig);
              return result.rows as R[];
            } catch (error) {
              // The statement may still be running on the connection: it cannot be reused.
              if ((error as Error).message === QUERY_READ_TIMEOUT) {
                broken = new DatabaseDeadlineError('a statement outlived the request deadline', { cause: error });
                throw broken;
              }
              throw error;
            }
          },
        });
      } finally {
        client.release(broken);
      }
    } finally {
      heavy?.release();
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

/** A connection of the pool, or a DatabaseDeadlineError when none comes before the deadline. */
async function connect(pool: Pool, deadlineMs: number): Promise<PoolClient> {
  const remaining = deadlineMs - Date.now();
  if (remaining <= 0) throw new DatabaseDeadlineError('the request deadline passed before a connection was free');
  const pending = pool.connect();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new DatabaseDeadlineError('no database connection before the deadline')),
      remaining,
    );
  });
  try {
    return await Promise.race([pending, timeout]);
  } catch (error) {
    // A connection that arrives after the deadline goes straight back to the pool.
    pending.then(
      (client) => client.release(),
      () => undefined,
    );
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

import { Injectable } from '@nestjs/common';
import { INCARNATION_SQL, SERVER_STARTED_SQL } from '../schema/sync-state.js';
import { SqlReader } from './sql-reader.js';

const INCARNATION = { text: `SELECT ${INCARNATION_SQL} AS incarnation`, name: 'cia_incarnation' };
const SERVER_STARTED = { text: `SELECT ${SERVER_STARTED_SQL} AS started`, name: 'cia_server_started' };

/**
 * Which database the service reads (see INCARNATION_SQL): what a sync position names. Read from the
 * primary once and kept; read again when asked for `fresh` (a position that does not open under the
 * kept one may come from a database that changed under the service), or told by a read that saw it.
 */
@Injectable()
export class DatabaseIncarnation {
  private known: Promise<string> | undefined;

  constructor(private readonly reader: SqlReader) {}

  current(deadlineMs: number, fresh = false): Promise<string> {
    if (fresh || this.known === undefined) {
      this.known = this.reader
        .read(deadlineMs, { cost: 'cheap', server: 'primary' }, (session) =>
          session.rows<{ incarnation: string }>(INCARNATION, []),
        )
        .then(
          ([row]) => row.incarnation,
          (error: unknown) => {
            this.known = undefined;
            throw error;
          },
        );
    }
    return this.known;
  }

  /**
   * When the primary server started (SERVER_STARTED_SQL), read now: never kept, since what it tells is
   * that the server has not started again since an earlier reading.
   */
  async primaryStarted(deadlineMs: number): Promise<string | null> {
    const [row] = await this.reader.read(deadlineMs, { cost: 'cheap', server: 'primary' }, (session) =>
      session.rows<{ started: string | null }>(SERVER_STARTED, []),
    );
    // Null: the primary URL reaches a standby (a failover under way), no primary's start to name.
    return row.started;
  }

  /** Whether a `replica` read may reach a standby (DATABASE_REPLICA_URLS names replicas). */
  get readsStandbys(): boolean {
    return this.reader.readsReplicas;
  }

  /** A read saw this incarnation. */
  observe(incarnation: string): void {
    this.known = Promise.resolve(incarnation);
  }
}

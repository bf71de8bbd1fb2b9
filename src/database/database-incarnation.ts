import { Injectable } from '@nestjs/common';
import { INCARNATION_SQL } from '../schema/sync-state.js';
import { SqlReader } from './sql-reader.js';

const INCARNATION = { text: `SELECT ${INCARNATION_SQL} AS incarnation`, name: 'cia_incarnation' };

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

  /** A read saw this incarnation. */
  observe(incarnation: string): void {
    this.known = Promise.resolve(incarnation);
  }
}

import { Injectable } from '@nestjs/common';
import { SqlReader } from './sql-reader.js';
import { fixedStatement } from './statement.js';

const SIGNING_KEY = fixedStatement<Record<string, never>>(
  () => `SELECT value FROM service_secrets WHERE name = 'cursor_signing_key'`,
);

/**
 * The secrets the service keeps in its database, shared by every replica (see the ServiceSecrets
 * migration): read once, on the primary, when first needed.
 */
@Injectable()
export class ServiceSecrets {
  private key: Promise<Buffer> | undefined;

  constructor(private readonly reader: SqlReader) {}

  /** The key that signs cursors and sync positions. */
  signingKey(deadlineMs: number): Promise<Buffer> {
    this.key ??= this.load(deadlineMs).catch((error: unknown) => {
      this.key = undefined;
      throw error;
    });
    return this.key;
  }

  private async load(deadlineMs: number): Promise<Buffer> {
    const rows = await this.reader.read(deadlineMs, { cost: 'cheap', server: 'primary' }, (db) =>
      db.rows<{ value: string }>(SIGNING_KEY, []),
    );
    if (rows.length === 0) throw new Error('service_secrets has no cursor_signing_key: run the migrations');
    return Buffer.from(rows[0].value, 'utf8');
  }
}

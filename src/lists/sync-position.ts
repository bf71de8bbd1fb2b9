import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ServiceSecrets } from '../database/service-secrets.js';
import { ApiError } from '../http/api-error.js';

/**
 * A sync position as clients see it: `sp_` and 48 characters that tell nothing (the transaction
 * inside is encrypted and authenticated, bound to the list, the API client, the tenant and the
 * store), or a bare `sp_<transaction>` that versions before this one handed out, still accepted.
 */
export const SYNC_POSITION_PATTERN_TEXT = '^sp_(?:[0-9]{1,19}|[A-Za-z0-9_-]{48})$';

const PREFIX = 'sp_';
const LEGACY = /^sp_([0-9]{1,19})$/;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const MAX_XACT = 2n ** 63n - 1n;

/** A 400 naming `changedSince`: a position the service did not hand out to this client for this list. */
export const invalidPosition = (message: string): ApiError =>
  ApiError.validationFailed([{ in: 'query', name: 'changedSince', message }]);

const FULL_COPY = 'take a full copy (the walk without changedSince) and keep its Sync-Position';

/**
 * Encodes and decodes sync positions. A position is a transaction id (see the ChangeMarkers
 * migration), encrypted with AES-256-GCM under a key derived from the service's signing key, with the
 * list, client, tenant and store as associated data: an altered position, or one used by another
 * client, on another list or for another store, fails its authentication. The IV is derived from the
 * position and what it is bound to (a synthetic IV), so one position always reads the same: every page
 * of a walk carries the same header.
 */
@Injectable()
export class SyncPositions {
  private keys: Promise<{ cipher: Buffer; iv: Buffer }> | undefined;

  constructor(private readonly secrets: ServiceSecrets) {}

  /** What a position is bound to. */
  static binding(parts: readonly unknown[]): Buffer {
    return createHash('sha256').update(JSON.stringify(parts)).digest();
  }

  async encode(binding: Buffer, transaction: string, deadlineMs: number): Promise<string> {
    const keys = await this.keysFor(deadlineMs);
    const plain = Buffer.alloc(8);
    plain.writeBigUInt64BE(BigInt(transaction));
    const iv = createHmac('sha256', keys.iv).update(binding).update(plain).digest().subarray(0, IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', keys.cipher, iv).setAAD(binding);
    const sealed = Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
    return `${PREFIX}${sealed.toString('base64url')}`;
  }

  /** The transaction of a position this service handed out for `binding`; a 400 for anything else. */
  async decode(binding: Buffer, position: string, deadlineMs: number): Promise<string> {
    const legacy = LEGACY.exec(position);
    if (legacy !== null) {
      if (BigInt(legacy[1]) > MAX_XACT) throw invalidPosition(`is not a position of this service: ${FULL_COPY}`);
      return BigInt(legacy[1]).toString();
    }
    const sealed = Buffer.from(position.slice(PREFIX.length), 'base64url');
    if (!position.startsWith(PREFIX) || sealed.length !== IV_BYTES + 8 + TAG_BYTES) {
      throw invalidPosition(`is not a position of this service: ${FULL_COPY}`);
    }
    const keys = await this.keysFor(deadlineMs);
    try {
      const decipher = createDecipheriv('aes-256-gcm', keys.cipher, sealed.subarray(0, IV_BYTES)).setAAD(binding);
      decipher.setAuthTag(sealed.subarray(IV_BYTES + 8));
      const plain = Buffer.concat([decipher.update(sealed.subarray(IV_BYTES, IV_BYTES + 8)), decipher.final()]);
      return plain.readBigUInt64BE().toString();
    } catch {
      throw invalidPosition(
        `was not handed out to this API client for this list (and storeId), or was altered: ${FULL_COPY}`,
      );
    }
  }

  private keysFor(deadlineMs: number): Promise<{ cipher: Buffer; iv: Buffer }> {
    this.keys ??= this.secrets.signingKey(deadlineMs).then(
      (secret) => {
        const derived = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'sync-position', 64));
        return { cipher: derived.subarray(0, 32), iv: derived.subarray(32) };
      },
      (error: unknown) => {
        this.keys = undefined;
        throw error;
      },
    );
    return this.keys;
  }
}

/** The message of a position ahead of the database (restored from a backup, or from elsewhere). */
export const AHEAD_OF_DATABASE = `is ahead of this database: it was not handed out by it (was the database restored?): ${FULL_COPY}`;

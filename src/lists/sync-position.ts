import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ServiceSecrets } from '../database/service-secrets.js';
import { DatabaseIncarnation } from '../database/database-incarnation.js';
import { ApiError } from '../http/api-error.js';

/**
 * A sync position as clients see it: `sp_` and 59 characters that tell nothing (the transaction and
 * the primary server's start inside are encrypted and authenticated, bound to the list, the API
 * client, the tenant and the store); `sp_` and 48 (without the server's start) or a bare
 * `sp_<transaction>`, which versions before this one handed out, are still accepted.
 */
export const SYNC_POSITION_PATTERN_TEXT = '^sp_(?:[0-9]{1,19}|[A-Za-z0-9_-]{48}|[A-Za-z0-9_-]{59})$';

const PREFIX = 'sp_';
const LEGACY = /^sp_([0-9]{1,19})$/;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** The transaction alone: positions sealed before they named the primary server's start. */
const SEALED_BEFORE_START = IV_BYTES + 8 + TAG_BYTES;
/** The transaction and the primary server's start. */
const SEALED = IV_BYTES + 16 + TAG_BYTES;
const MAX_XACT = 2n ** 63n - 1n;

/** A 400 naming `changedSince`: a position the service did not hand out to this client for this list. */
export const invalidPosition = (message: string): ApiError =>
  ApiError.validationFailed([{ in: 'query', name: 'changedSince', message }]);

export const FULL_COPY = 'take a full copy (the walk without changedSince) and keep its Sync-Position';

/** A position as decoded: its transaction, and the database it names (null: sealed before positions named one). */
export interface DecodedPosition {
  readonly xact: string;
  readonly incarnation: string | null;
  /**
   * When the primary server it was handed out under started (SERVER_STARTED_SQL in sync-state.ts);
   * null for a position sealed before positions named it: the sync guard then takes the start the
   * RestartRefused migration found.
   */
  readonly serverStarted: string | null;
  /**
   * The creation of the API client (`api_clients.created_xact`) the position was sealed for, when it
   * was sealed for one; null for a position sealed without it (a client made before the column, whose
   * created_xact is 0, a version before this one, a bare `sp_<transaction>`): the sync guard then
   * refuses it when it is not later than the client's creation.
   */
  readonly clientCreated: string | null;
}

/**
 * What a position is bound to: the list, tenant, client and store, and the client's creation
 * (`api_clients.created_xact`) when it is not 0, so that a client deleted and created again under its
 * id cannot use the positions of the one before. A client made before that column (0) is bound as
 * it always was, and so are positions sealed before it: `unsealed` still opens them.
 */
export interface PositionBinding {
  /** What positions handed out now are sealed to. */
  readonly sealed: Buffer;
  /** The client's creation sealed into `sealed`; null when it is 0 (not sealed). */
  readonly clientCreated: string | null;
  /** The binding without the client's creation (`sealed` itself when it is 0). */
  readonly unsealed: Buffer;
}

/**
 * Encodes and decodes sync positions. A position is a transaction id (see the ChangeMarkers
 * migration), encrypted with AES-256-GCM under a key derived from the service's signing key, with the
 * list, client, tenant, store, the client's creation (PositionBinding) and the database incarnation
 * (sync-state.ts) as associated data: an altered position, or one used by another client (an earlier
 * client of the same id included), on another list, for another store or on another database (a
 * restore, a promoted replica, a new cluster), fails its authentication or its check. The
 * IV is derived from the position and what it is bound to (a synthetic IV), so one position always
 * reads the same: every page of a walk carries the same header.
 *
 * Positions sealed before they named their database (and bare `sp_<transaction>` ones) decode with a
 * null incarnation: the sync guard honours them only in the database the FailSafeSync migration ran in.
 */
@Injectable()
export class SyncPositions {
  private keys: Promise<{ cipher: Buffer; iv: Buffer }> | undefined;

  constructor(
    private readonly secrets: ServiceSecrets,
    private readonly database: DatabaseIncarnation,
  ) {}

  /**
   * What a position of `parts` (the list, tenant, client and store) is bound to, for the client whose
   * `api_clients.created_xact` is `clientCreated` ('0': made before the column, or not there).
   */
  static binding(parts: readonly unknown[], clientCreated: string): PositionBinding {
    const unsealed = digest(parts);
    if (BigInt(clientCreated) === 0n) return { sealed: unsealed, clientCreated: null, unsealed };
    return { sealed: digest([...parts, { clientCreated }]), clientCreated, unsealed };
  }

  /**
   * The position of `transaction` for `binding`, handed out by the database `incarnation` under the
   * primary server started at `serverStarted` ('0' when no primary could be named: never honoured).
   */
  async encode(
    binding: PositionBinding,
    incarnation: string,
    transaction: string,
    serverStarted: string,
    deadlineMs: number,
  ): Promise<string> {
    const keys = await this.keysFor(deadlineMs);
    const aad = boundTo(binding.sealed, incarnation);
    const plain = Buffer.alloc(16);
    plain.writeBigUInt64BE(BigInt(transaction));
    plain.writeBigInt64BE(BigInt(serverStarted), 8);
    const iv = createHmac('sha256', keys.iv).update(aad).update(plain).digest().subarray(0, IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', keys.cipher, iv).setAAD(aad);
    const sealed = Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
    return `${PREFIX}${sealed.toString('base64url')}`;
  }

  /**
   * The transaction and database of a position this service handed out for `binding`, and the client
   * creation it was sealed for; a 400 for anything else (an altered position, another list's, client's,
   * store's or database's, or that of an earlier client of this id: it was sealed for that one).
   */
  async decode(binding: PositionBinding, position: string, deadlineMs: number): Promise<DecodedPosition> {
    const legacy = LEGACY.exec(position);
    if (legacy !== null) {
      if (BigInt(legacy[1]) > MAX_XACT) throw invalidPosition(`is not a position of this service: ${FULL_COPY}`);
      return { xact: BigInt(legacy[1]).toString(), incarnation: null, serverStarted: null, clientCreated: null };
    }
    const text = position.slice(PREFIX.length);
    const sealed = Buffer.from(text, 'base64url');
    // Only the text the service wrote: 44 bytes end in a character whose last 2 bits are padding, which
    // a decoder ignores, so another text could open the same position.
    const canonical = sealed.toString('base64url') === text;
    if (
      !position.startsWith(PREFIX) ||
      !canonical ||
      (sealed.length !== SEALED && sealed.length !== SEALED_BEFORE_START)
    ) {
      throw invalidPosition(`is not a position of this service: ${FULL_COPY}`);
    }
    const keys = await this.keysFor(deadlineMs);
    // Sealed for this client (its creation), else without it (before sealing it, or a client made before it).
    const tries: [Buffer, string | null][] = [[binding.sealed, binding.clientCreated]];
    if (binding.clientCreated !== null) tries.push([binding.unsealed, null]);
    const known = await this.database.current(deadlineMs);
    for (const [aad, clientCreated] of tries) {
      const opened = open(keys.cipher, sealed, boundTo(aad, known));
      if (opened !== null) return { ...opened, incarnation: known, clientCreated };
    }
    // The database may have changed under the service (a failover, a restore): read it again.
    const now = await this.database.current(deadlineMs, true);
    if (now !== known) {
      for (const [aad, clientCreated] of tries) {
        const opened = open(keys.cipher, sealed, boundTo(aad, now));
        if (opened !== null) return { ...opened, incarnation: now, clientCreated };
      }
    }
    // Sealed before positions named their database (and the client's creation).
    const opened = open(keys.cipher, sealed, binding.unsealed);
    if (opened !== null) return { ...opened, incarnation: null, clientCreated: null };
    throw invalidPosition(NOT_HANDED_OUT);
  }

  /** A read saw this incarnation: the next decode tries it first. */
  observe(incarnation: string): void {
    this.database.observe(incarnation);
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

function digest(parts: readonly unknown[]): Buffer {
  return createHash('sha256').update(JSON.stringify(parts)).digest();
}

/** The associated data of a position of `binding` handed out by the database `incarnation`. */
function boundTo(binding: Buffer, incarnation: string): Buffer {
  return createHash('sha256').update(binding).update(`\0${incarnation}`).digest();
}

/**
 * The transaction sealed under `aad` and the server's start sealed with it (null when sealed before
 * positions named it), or null when it does not authenticate.
 */
function open(cipher: Buffer, sealed: Buffer, aad: Buffer): { xact: string; serverStarted: string | null } | null {
  const tagAt = sealed.length - TAG_BYTES;
  try {
    const decipher = createDecipheriv('aes-256-gcm', cipher, sealed.subarray(0, IV_BYTES)).setAAD(aad);
    decipher.setAuthTag(sealed.subarray(tagAt));
    const plain = Buffer.concat([decipher.update(sealed.subarray(IV_BYTES, tagAt)), decipher.final()]);
    return {
      xact: plain.readBigUInt64BE().toString(),
      serverStarted: plain.length === 16 ? plain.readBigInt64BE(8).toString() : null,
    };
  } catch {
    return null;
  }
}

/**
 * The message of a position that does not open: altered, another list's, client's, store's or
 * database's (the service has not read that one since it started), or sealed for an earlier client of
 * this id, deleted since (positions are sealed for the client's creation).
 */
export const NOT_HANDED_OUT =
  `was not handed out to this API client for this list (and storeId) by this database, or was altered, ` +
  `or your API client was created again under the same id since: ${FULL_COPY}`;

/** The message of a position ahead of the database (restored from a backup, or from elsewhere). */
export const AHEAD_OF_DATABASE = `is ahead of this database: it was not handed out by it (was the database restored?): ${FULL_COPY}`;

/** Why a position the service handed out is refused now (docs/sync.md#when-a-position-is-refused). */
export const REFUSED = {
  otherDatabase: `was handed out by another database (a restore, a failover to a replica, a new cluster): ${FULL_COPY}`,
  restarted:
    `was handed out before the database server's current run began (a restart, a crash recovery, or a start ` +
    `from a copy of its files: a snapshot, a cold copy, a base backup), and the service cannot tell that this ` +
    `database kept every change since: ${FULL_COPY}`,
  triggersOff:
    `cannot be honoured: the service's change triggers are not all enabled on this database (npm run db:migrate ` +
    `sets them back), or another BEFORE ROW trigger fires after them on a synced table: ${FULL_COPY}`,
  voided:
    `is older than a change that marked no rows (a TRUNCATE, triggers disabled or a column altered ` +
    `outside the service's migrations): ${FULL_COPY}`,
  pruned:
    `is older than the removal records the service keeps (SYNC_REMOVALS_RETENTION_DAYS): ` +
    `what left your view before them cannot be told: ${FULL_COPY}`,
  clientRecreated:
    `was handed out before your API client was created again under the same id (deleted and made anew, or ` +
    `its tenant imported with db:import --replace): ${FULL_COPY}`,
} as const;

import pg from 'pg';
import {
  idOf,
  nextLink,
  REMOVALS_ROUTES,
  ROUTES,
  type Route,
  type Row,
  type Service,
  serviceState,
} from './sync-harness.js';

/**
 * A copy of one list for one key, kept by the recipe of docs/sync.md against whichever service it is
 * pointed at (`service` may change: a failover, a restore): full walks that reconcile deletions,
 * incremental rounds from the kept position (the changes walk, then the removals walk from the same
 * position), and a full walk when a round is refused. Every position
 * it was handed is kept, to try them again later.
 */
export class RecipeCopy {
  readonly rows = new Map<string, Row>();
  position: string | null = null;
  /** Every Sync-Position the service handed this copy, oldest first. */
  readonly handedOut: string[] = [];

  constructor(
    public service: Service,
    readonly route: Route,
    readonly key: string,
  ) {}

  /** A first copy or a periodic full walk: upserts every row, deletes those it did not return. */
  async fullWalk(): Promise<void> {
    const walked = await this.walk(null);
    if (walked.refusal !== null) throw new Error(`a full walk was refused: ${JSON.stringify(walked.refusal)}`);
    for (const id of [...this.rows.keys()]) if (!walked.ids.has(id)) this.rows.delete(id);
  }

  /** An incremental round from the kept position: the refusal when it is refused (nothing changes then). */
  async round(): Promise<Refusal | null> {
    if (this.position === null) throw new Error('no position: take a full walk first');
    return (await this.walk(this.position)).refusal;
  }

  /** The recipe's step: a round, or a full walk when the round is refused. */
  async sync(): Promise<'round' | 'refused, full walk'> {
    if ((await this.round()) === null) return 'round';
    await this.fullWalk();
    return 'refused, full walk';
  }

  /** What the service answers to a round from `position`, without keeping anything: 200, or its refusal. */
  async tryPosition(position: string): Promise<{ status: number; refusal: Refusal | null }> {
    const res = await get(
      this.service,
      `${ROUTES[this.route]}?activeOnly=false&pageSize=100&changedSince=${position}`,
      this.key,
    );
    const body = (await res.json()) as ErrorBody;
    return { status: res.status, refusal: res.status === 200 ? null : refusalOf(res.status, body) };
  }

  /**
   * How the copy differs from a fresh full walk of the service: rows it lacks or holds differently.
   * Rows the copy holds beyond the walk's are counted only with `extra` (a key limited to stores may
   * keep rows that went out of its view until its next full walk).
   */
  async differences(options: { extra: boolean }): Promise<Difference[]> {
    const state = await serviceState(this.service, this.route, this.key);
    const found: Difference[] = [];
    for (const [id, row] of state) {
      const kept = this.rows.get(id);
      if (JSON.stringify(kept) !== JSON.stringify(row)) found.push({ id, copy: kept ?? null, service: row });
    }
    if (options.extra) {
      for (const [id, kept] of this.rows) if (!state.has(id)) found.push({ id, copy: kept, service: null });
    }
    return found;
  }

  private async walk(since: string | null): Promise<{ refusal: Refusal | null; ids: Set<string> }> {
    const ids = new Set<string>();
    let url: string | undefined =
      `${ROUTES[this.route]}?activeOnly=false&pageSize=50${since === null ? '' : `&changedSince=${since}`}`;
    let position: string | null = null;
    let first = true;
    while (url !== undefined) {
      const res = await get(this.service, url, this.key);
      const body = (await res.json()) as { rows: Row[] } & ErrorBody;
      if (first && res.status === 400) return { refusal: refusalOf(res.status, body), ids };
      if (res.status !== 200) throw new Error(`${url}: ${res.status} ${JSON.stringify(body)}`);
      for (const row of body.rows) {
        this.rows.set(idOf(row), row);
        ids.add(idOf(row));
      }
      position = res.headers.get('sync-position');
      url = nextLink(res.headers.get('link'));
      first = false;
    }
    if (position === null) throw new Error(`${this.route}: the walk handed out no Sync-Position`);
    // A round: then the removals walk from the same position, before the new one is kept.
    if (since !== null) {
      let removals: string | undefined = `${REMOVALS_ROUTES[this.route]}?pageSize=50&changedSince=${since}`;
      while (removals !== undefined) {
        const res = await get(this.service, removals, this.key);
        const body = (await res.json()) as { rows: Row[] } & ErrorBody;
        if (res.status !== 200) throw new Error(`${removals}: ${res.status} ${JSON.stringify(body)}`);
        for (const row of body.rows) this.rows.delete(idOf(row));
        removals = nextLink(res.headers.get('link'));
      }
    }
    this.position = position;
    if (this.handedOut.at(-1) !== position) this.handedOut.push(position);
    return { refusal: null, ids };
  }
}

export interface Difference {
  id: string;
  copy: Row | null;
  service: Row | null;
}

/** A refused round as the contract words it: a 400 validation_failed naming changedSince. */
export interface Refusal {
  status: number;
  code: string | undefined;
  names: string[];
  /** The message advises a full copy. */
  fullCopy: boolean;
}

/** What a refused position must be answered with. */
export const REFUSED: Refusal = { status: 400, code: 'validation_failed', names: ['changedSince'], fullCopy: true };

interface ErrorBody {
  error?: { code?: string; details?: { errors?: { name: string; message: string }[] } };
}

function refusalOf(status: number, body: ErrorBody): Refusal {
  const errors = body.error?.details?.errors ?? [];
  return {
    status,
    code: body.error?.code,
    names: errors.map((e) => e.name),
    fullCopy: errors.some((e) => /full copy/.test(e.message)),
  };
}

const get = (service: Service, url: string, key: string): Promise<Response> =>
  fetch(service.base + url, { headers: { Authorization: `Bearer ${key}` } });

/** One statement on a database, on a connection of its own. */
export async function query<R extends Row = Row>(url: string, text: string, values: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as R[];
  } finally {
    await client.end();
  }
}

/** The server's next transaction id (what its counter stands at). */
export async function nextTransaction(url: string): Promise<bigint> {
  const [row] = await query<{ next: string }>(url, `SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS next`);
  return BigInt(row.next);
}

/**
 * Makes the server's transaction counter pass `beyond` with transactions that write nothing: a
 * cluster that has simply run longer than another (each statement its own transaction).
 */
export async function advanceTransactions(url: string, beyond: bigint): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    let next = BigInt((await client.query(`SELECT pg_current_xact_id()::text AS x`)).rows[0].x as string);
    while (next <= beyond) {
      const batch = Number(beyond - next < 500n ? beyond - next + 1n : 500n);
      // Statements of one query string share one implicit transaction: each gets a BEGIN and COMMIT of its own.
      await client.query(Array.from({ length: batch }, () => 'BEGIN; SELECT pg_current_xact_id(); COMMIT;').join(''));
      next = BigInt((await client.query(`SELECT pg_current_xact_id()::text AS x`)).rows[0].x as string);
    }
  } finally {
    await client.end();
  }
}

/** Waits until `check` holds, polling; throws `what` after `timeoutMs`. */
export async function until(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

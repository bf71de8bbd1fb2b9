import { IncompleteSyncError } from './errors.js';
import type { Listing } from './pagination.js';
import type { Page, PageBody, RowOf } from './types.js';

type Walk = 'ready' | 'walking' | 'complete' | 'incomplete';

/** What `apply` does with a round's rows: upsert what changed, delete what left the key's view. */
export interface SyncHandlers<Row, Removal> {
  /** A row that changed or came into view (it may come again in a later round: an upsert). */
  onRow(row: Row): unknown;
  /** A row that left the view since the round's position: delete it (by the same key as `onRow`'s rows). */
  onRemove(removal: Removal): unknown;
}

/**
 * One round of the lossless sync recipe (docs/sync.md): first the changes walk, every row (inactive
 * ones included) changed since `since` (all of them without `since`: a full copy), following `Link`
 * next to the end; upsert each row it yields (products by `id`, stock rows by `productId`; a row may
 * come again in a later round). Then, on an incremental round, the removals walk from the same
 * `since` (`removals()`): delete each listed row. Then store `position`, the changes walk's.
 *
 * The order is the recipe's: the removals walk starts after the changes walk ended (a removals walk
 * before it could miss a removal made meanwhile), and `position` can only be read once both walks
 * reached their end (after loops that ended without a break or an error); before that it throws
 * IncompleteSyncError. `apply({ onRow, onRemove })` does it all. A round walks once.
 */
export class SyncRound<Body extends PageBody, Removals extends PageBody> implements AsyncIterable<RowOf<Body>> {
  private changes: Walk = 'ready';
  private removed: Walk = 'ready';
  private reached: string | null = null;

  constructor(
    private readonly listing: Listing<Body>,
    /** The position this round started from; undefined for a full copy. */
    readonly since: string | undefined,
    /** The removals walk from `since` (none for a full copy). */
    private readonly removalsListing: Listing<Removals> | null,
  ) {}

  /** Whether the round copies everything (no position given): nothing to remove, the copy is what it yields. */
  get full(): boolean {
    return this.since === undefined;
  }

  /** Whether both walks reached their end (then `position` can be read). */
  get complete(): boolean {
    return this.changes === 'complete' && (this.full || this.removed === 'complete');
  }

  /** The position to store and pass to the next round. Throws IncompleteSyncError until the round reached its end. */
  get position(): string {
    if (!this.complete || this.reached === null) {
      throw new IncompleteSyncError(
        this.changes === 'ready'
          ? 'the round has not been walked yet: iterate it to its end first'
          : this.changes !== 'complete' || this.removed === 'incomplete' || this.removed === 'walking'
            ? 'the round did not walk to its end (a break or an error): keep the previous position and run a new round'
            : 'the removals of the round have not been walked yet: iterate round.removals() to its end first',
      );
    }
    return this.reached;
  }

  async *pages(): AsyncGenerator<Page<Body>, void, undefined> {
    if (this.changes !== 'ready') throw new Error('a sync round walks once: start a new round for another walk');
    this.changes = 'walking';
    let position: string | null = null;
    let ended = false;
    try {
      for await (const page of this.listing.pages()) {
        if (page.syncPosition === null) throw new Error('the service handed out no Sync-Position on a sync walk');
        if (position !== null && page.syncPosition !== position) {
          throw new Error(`the Sync-Position changed within one walk (${position}, then ${page.syncPosition})`);
        }
        position = page.syncPosition;
        yield page;
      }
      ended = true;
    } finally {
      // Reached only when the consumer asked for more after the last page: its rows were processed.
      this.reached = ended ? position : null;
      this.changes = ended ? 'complete' : 'incomplete';
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<RowOf<Body>, void, undefined> {
    for await (const page of this.pages()) yield* page.rows as RowOf<Body>[];
  }

  /**
   * The rows that left the key's view since `since` (deleted, moved to a store outside the view, or
   * their store left it), to delete from the copy: walked only after the changes walk reached its end.
   * Nothing on a full round.
   */
  async *removals(): AsyncGenerator<RowOf<Removals>, void, undefined> {
    if (this.changes !== 'complete') {
      throw new IncompleteSyncError("walk the round's changes to their end first: removals come after them");
    }
    if (this.removed !== 'ready') throw new Error('a sync round walks its removals once: start a new round');
    this.removed = 'walking';
    let ended = false;
    try {
      if (this.removalsListing !== null) {
        for await (const page of this.removalsListing.pages()) yield* page.rows as RowOf<Removals>[];
      }
      ended = true;
    } finally {
      this.removed = ended ? 'complete' : 'incomplete';
    }
  }

  /** The whole round: `onRow` for each changed row, then `onRemove` for each removal; returns `position`. */
  async apply(handlers: SyncHandlers<RowOf<Body>, RowOf<Removals>>): Promise<string> {
    for await (const row of this) await handlers.onRow(row);
    for await (const removal of this.removals()) await handlers.onRemove(removal);
    return this.position;
  }
}

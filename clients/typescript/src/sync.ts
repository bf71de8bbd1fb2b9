import { IncompleteSyncError } from './errors.js';
import type { Listing } from './pagination.js';
import type { Page, PageBody, RowOf } from './types.js';

/**
 * One round of the lossless sync recipe: a walk of every row (inactive ones included) changed since
 * `since` (all of them without `since`: a full copy), following `Link` next to the end. Upsert each row
 * it yields (products by `id`, stock rows by `productId`; a row may come again in a later round),
 * then store `position` for the next round. `position` can only be read once the walk reached its
 * end, that is after the loop over the round ended without a break or an error; before that it
 * throws IncompleteSyncError. A round walks once.
 */
export class SyncRound<Body extends PageBody> implements AsyncIterable<RowOf<Body>> {
  private state: 'ready' | 'walking' | 'complete' | 'incomplete' = 'ready';
  private reached: string | null = null;

  constructor(
    private readonly listing: Listing<Body>,
    /** The position this round started from; undefined for a full copy. */
    readonly since: string | undefined,
  ) {}

  /** Whether the round copies everything (no position given): also the basis for finding deletions. */
  get full(): boolean {
    return this.since === undefined;
  }

  /** Whether the walk reached its end (then `position` can be read). */
  get complete(): boolean {
    return this.state === 'complete';
  }

  /** The position to store and pass to the next round. Throws IncompleteSyncError until the walk reached its end. */
  get position(): string {
    if (this.state !== 'complete' || this.reached === null) {
      throw new IncompleteSyncError(
        this.state === 'ready'
          ? 'the round has not been walked yet: iterate it to its end first'
          : 'the round did not walk to its end (a break or an error): keep the previous position and run a new round',
      );
    }
    return this.reached;
  }

  async *pages(): AsyncGenerator<Page<Body>, void, undefined> {
    if (this.state !== 'ready') throw new Error('a sync round walks once: start a new round for another walk');
    this.state = 'walking';
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
      this.state = ended ? 'complete' : 'incomplete';
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<RowOf<Body>, void, undefined> {
    for await (const page of this.pages()) yield* page.rows as RowOf<Body>[];
  }
}

import { Injectable } from '@nestjs/common';
import type { JsonText } from '../values/json-text.js';
import { CursorCodec } from './cursor.js';
import { pageBody, type PageWindow } from './pagination.js';

/** A sync position as clients see it: opaque; inside, the first transaction the next round must read. */
export const SYNC_POSITION_PATTERN_TEXT = '^sp_[0-9]{1,19}$';
const toSyncPosition = (transaction: string): string => `sp_${transaction}`;
const fromSyncPosition = (position: string): string => position.slice('sp_'.length);

/** What a paginated list request asks for (page numbers or a cursor, and a sync position). */
export interface WalkRequest {
  readonly page?: number;
  readonly pageSize: number;
  readonly cursor?: string;
  readonly changedSince?: string;
}

/** How a list reads the database for one page of a walk. */
export interface Walk {
  readonly window: PageWindow;
  /** The page number this page stands for. */
  readonly page: number;
  readonly sync: SyncRead;
}

/** What a sync walk needs from the read (see the ChangeMarkers migration). */
export interface SyncRead {
  /** Only rows changed by this transaction or a later one. */
  readonly changedSince?: string;
  /** This page begins a sync walk: take the position to hand out, in the snapshot of its reads. */
  readonly takeHorizon?: boolean;
  /** The walk began at this position: a server that has not caught up with it must not answer. */
  readonly caughtUpTo?: string;
}

/** What a repository gives back for one page. */
export interface ListedRows {
  readonly total: number;
  readonly rows: readonly JsonText[];
  readonly lastId: string | null;
  readonly hasNext: boolean;
  /** The oldest transaction the read's snapshot could not see (asked for by takeHorizon or caughtUpTo). */
  readonly horizon: string | null;
}

/** One page of a list: its body, the cursor of the next page and, on a sync walk, the position to store. */
export interface ListedPage {
  readonly body: JsonText;
  readonly nextCursor: string | null;
  readonly syncPosition: string | null;
}

/**
 * Walks of the paginated lists: by page number (OFFSET), or by following cursors (an index seek
 * after the last id, whatever the depth). A walk that begins without `page` on a list that can be a
 * sync basis (every row of the scope, inactive ones included) hands out a sync position, taken when
 * it began and carried by its cursors, so that it is the same on every page.
 */
@Injectable()
export class Walks {
  constructor(private readonly cursors: CursorCodec) {}

  /**
   * `binding` identifies what the walk lists (see CursorCodec.binding); `syncable` says whether the
   * list can be a sync basis.
   */
  async begin(request: WalkRequest, binding: string, syncable: boolean, deadlineMs: number): Promise<Walk> {
    const changedSince = request.changedSince === undefined ? undefined : fromSyncPosition(request.changedSince);
    if (request.cursor !== undefined) {
      const state = await this.cursors.decode(binding, request.cursor, deadlineMs);
      return {
        window: { pageSize: request.pageSize, offset: 0, afterId: state.afterId },
        page: state.page,
        sync: { changedSince, caughtUpTo: state.horizon },
      };
    }
    const page = request.page ?? 1;
    return {
      window: { pageSize: request.pageSize, offset: (page - 1) * request.pageSize },
      page,
      sync: { changedSince, takeHorizon: syncable && request.page === undefined },
    };
  }

  async end(walk: Walk, binding: string, listed: ListedRows, deadlineMs: number): Promise<ListedPage> {
    const horizon = walk.sync.caughtUpTo ?? (walk.sync.takeHorizon ? (listed.horizon ?? undefined) : undefined);
    const nextCursor =
      listed.hasNext && listed.lastId !== null
        ? await this.cursors.encode(binding, { afterId: listed.lastId, page: walk.page + 1, horizon }, deadlineMs)
        : null;
    return {
      body: pageBody(listed.rows, walk.page, walk.window.pageSize, listed.total),
      nextCursor,
      syncPosition: horizon === undefined ? null : toSyncPosition(horizon),
    };
  }
}

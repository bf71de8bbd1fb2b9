import type { JsonText } from '../database/sql-format.js';
import { IntegerParam } from '../params/params.js';

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 50;

/** `page` and `pageSize` of the paginated routes. */
export class PageQuery {
  // The largest integer a JSON client can read back exactly: a larger page could not be echoed truthfully.
  @IntegerParam({
    min: 1,
    max: Number.MAX_SAFE_INTEGER,
    default: 1,
    description: 'Page number, from 1. A page past the last one is a 200 with no rows and the true total.',
  })
  page: number = 1;

  @IntegerParam({
    min: 1,
    max: MAX_PAGE_SIZE,
    default: DEFAULT_PAGE_SIZE,
    description: `Rows per page, 1 to ${MAX_PAGE_SIZE}.`,
  })
  pageSize: number = DEFAULT_PAGE_SIZE;
}

/** Which rows of a list a page holds: skip `offset` rows, or start after the id `afterId` (a cursor). */
export interface PageWindow {
  readonly pageSize: number;
  readonly offset: number;
  readonly afterId?: string;
}

export function pageWindow(query: PageQuery): PageWindow {
  // Pages far past the end still give a valid (empty) query.
  return { pageSize: query.pageSize, offset: (query.page - 1) * query.pageSize };
}

/**
 * The paginated body of the contract, `{ rows, page, pageSize, total, totalPages }` in that order,
 * around rows that are already JSON text.
 */
export function pageBody(rows: readonly JsonText[], page: number, pageSize: number, total: number): JsonText {
  const totalPages = Math.max(1, Math.ceil(total / pageSize));
  return `{"rows":[${rows.join(',')}],"page":${page},"pageSize":${pageSize},"total":${total},"totalPages":${totalPages}}` as JsonText;
}

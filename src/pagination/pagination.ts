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

export interface Page<T> {
  rows: T[];
  page: number;
  pageSize: number;
  total: number;
  totalPages: number;
}

export function toPage<T>(rows: T[], query: PageQuery, total: number): Page<T> {
  return {
    rows,
    page: query.page,
    pageSize: query.pageSize,
    total,
    totalPages: Math.max(1, Math.ceil(total / query.pageSize)),
  };
}

/** OFFSET for a page; pages far past the end still give a valid (empty) query. */
export function offsetOf(query: PageQuery): number {
  return (query.page - 1) * query.pageSize;
}

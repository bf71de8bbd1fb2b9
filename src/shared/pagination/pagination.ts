import { IntegerParam } from '../validation/params.js';

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 50;

/** `page` and `pageSize` of the paginated routes. */
export class PageQuery {
  @IntegerParam({ min: 1 }) page: number = 1;
  @IntegerParam({ min: 1, max: MAX_PAGE_SIZE }) pageSize: number = DEFAULT_PAGE_SIZE;
}

export interface Page<T> {
  rows: T[];
  page: number;
  pageSize: number;
  total: number;
  totalPages: number;
}

export function toPage<T>(rows: T[], query: PageQuery, total: number): Page<T> {
  return { rows, page: query.page, pageSize: query.pageSize, total, totalPages: Math.max(1, Math.ceil(total / query.pageSize)) };
}

/** OFFSET for a page; pages far past the end still give a valid (empty) query. */
export function offsetOf(query: PageQuery): number {
  return (query.page - 1) * query.pageSize;
}

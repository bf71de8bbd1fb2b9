import type { Type } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import type { JsonText } from '../values/json-text.js';
import { CursorParam, IntegerParam, SyncPositionParam } from '../params/params.js';
import { CURSOR_PATTERN_TEXT } from './cursor.js';
import { SAMPLE_CURSOR, SAMPLE_SYNC_POSITION } from './samples.js';
import { SYNC_POSITION_PATTERN_TEXT } from './sync-position.js';

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 50;

/** `pageSize` of every paginated walk (the lists and their removals feeds). */
export const PAGE_SIZE_PARAM = {
  min: 1,
  max: MAX_PAGE_SIZE,
  default: DEFAULT_PAGE_SIZE,
  example: 20,
  description: `Rows per page, 1 to ${MAX_PAGE_SIZE}.`,
};

/** `cursor` of every paginated walk (the lists and their removals feeds): one parameter in the document. */
export const CURSOR_PARAM = {
  pattern: CURSOR_PATTERN_TEXT,
  example: SAMPLE_CURSOR,
  description:
    'Where a walk continues: take it from the `Link` header\'s `rel="next"` URL, which repeats every other ' +
    'parameter of the request (a cursor is refused with other parameters, with `page`, by another API client, ' +
    'or altered). Pages by cursor are read after the last id of the previous page, at the cost of the first ' +
    "page whatever the depth; the body's `page` is the page number the cursor stands for.",
};

/** `page`, `pageSize` and `cursor` of the paginated routes. */
export class PageQuery {
  // The largest integer a JSON client can read back exactly: a larger page could not be echoed truthfully.
  // No initial value: a cursor may not be combined with a page that was given. No `default` in the
  // document either: Swagger UI (and other tools) send a schema default, and `page` beside a pasted
  // cursor is refused.
  @IntegerParam({
    min: 1,
    max: Number.MAX_SAFE_INTEGER,
    example: 2,
    description:
      'Page number, from 1; 1 when absent. A page past the last one is a 200 with no rows and the true total. ' +
      'To walk a whole list, follow the `Link` header\'s `rel="next"` cursors instead: their cost does not ' +
      'grow with the depth, and they miss no row.',
  })
  page?: number;

  @IntegerParam(PAGE_SIZE_PARAM)
  pageSize: number = DEFAULT_PAGE_SIZE;

  @CursorParam(CURSOR_PARAM)
  cursor?: string;
}

/**
 * `changedSince` of a list that can be synced: a position of an earlier walk. It walks every row of
 * the scope, so it combines with none of the list's `filters`.
 */
export const ChangedSinceParam = (options: {
  filters: Readonly<Record<string, unknown>>;
  description: string;
}): PropertyDecorator =>
  SyncPositionParam({
    pattern: SYNC_POSITION_PATTERN_TEXT,
    filters: Object.keys(options.filters).filter((name) => name !== 'activeOnly'),
    example: SAMPLE_SYNC_POSITION,
    description: options.description,
  });

/**
 * The paginated body of the contract, `{ rows, page, pageSize, total, totalPages }` in that order,
 * around rows that are already JSON text.
 */
export function pageBody(rows: readonly JsonText[], page: number, pageSize: number, total: number): JsonText {
  const totalPages = Math.max(1, Math.ceil(total / pageSize));
  return `{"rows":[${rows.join(',')}],"page":${page},"pageSize":${pageSize},"total":${total},"totalPages":${totalPages}}` as JsonText;
}

/**
 * The numbers of a page. `page` echoes the request's page, up to 2^53 - 1 (int64); the counts are
 * int32, as PostgreSQL counts them (`count(*)::int`: a larger count would be an error, not a total).
 */
export const PageFields = {
  page: (): PropertyDecorator =>
    ApiProperty({
      type: 'integer',
      format: 'int64',
      minimum: 1,
      maximum: Number.MAX_SAFE_INTEGER,
      description: 'The page returned, from 1.',
    }),
  pageSize: (): PropertyDecorator =>
    ApiProperty({
      type: 'integer',
      format: 'int32',
      minimum: 1,
      maximum: MAX_PAGE_SIZE,
      description: 'Rows per page.',
    }),
  total: (): PropertyDecorator =>
    ApiProperty({
      type: 'integer',
      format: 'int32',
      minimum: 0,
      description: 'Rows matching the filters, on all pages.',
    }),
  totalPages: (): PropertyDecorator =>
    ApiProperty({
      type: 'integer',
      format: 'int32',
      minimum: 1,
      description: 'ceil(total / pageSize), at least 1.',
    }),
  /** At most a page's worth of rows. */
  rows: (type: [Type<unknown>]): PropertyDecorator => ApiProperty({ type, maxItems: MAX_PAGE_SIZE }),
};

import type { Type } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { MAX_PAGE_SIZE } from '../pagination/pagination.js';
import { ID_PATTERN_TEXT } from '../params/params.js';

/** Schema decorators for response fields, written once to the conventions of the contract. */

/** No `example`: a schema's example is written whole, once (see ApiSchemaWithExample). */
type Extra = { description?: string; nullable?: boolean };

export const IdProperty = (extra: Extra = {}): PropertyDecorator =>
  ApiProperty({ type: String, pattern: ID_PATTERN_TEXT, ...extra });

export const TextProperty = (extra: Extra = {}): PropertyDecorator => ApiProperty({ type: String, ...extra });

export const MONEY_PATTERN = '^-?[0-9]+\\.[0-9]{2}$';
export const QUANTITY_PATTERN = '^-?[0-9]+\\.[0-9]{3}$';
export const TIMESTAMP_PATTERN = '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z$';

/** A decimal number in a JSON string with exactly 2 decimals, never a JSON number. */
export const MoneyProperty = (extra: Extra = {}): PropertyDecorator =>
  ApiProperty({ type: String, pattern: MONEY_PATTERN, ...extra });

/** A stock quantity: a decimal number in a JSON string with exactly 3 decimals. */
export const QuantityProperty = (extra: Extra = {}): PropertyDecorator =>
  ApiProperty({ type: String, pattern: QUANTITY_PATTERN, ...extra });

/** UTC with milliseconds: `2026-10-02T09:30:00.000Z`. */
export const TimestampProperty = (extra: Extra = {}): PropertyDecorator =>
  ApiProperty({ type: String, format: 'date-time', pattern: TIMESTAMP_PATTERN, ...extra });

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

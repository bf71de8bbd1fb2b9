import { ApiProperty } from '@nestjs/swagger';
import { ID_PATTERN_TEXT } from '../params/params.js';

/** Schema decorators for response fields, written once to the conventions of the contract. */

type Extra = { description?: string; example?: unknown; nullable?: boolean };

export const IdProperty = (extra: Extra = {}): PropertyDecorator =>
  ApiProperty({ type: String, pattern: ID_PATTERN_TEXT, ...extra });

export const TextProperty = (extra: Extra = {}): PropertyDecorator => ApiProperty({ type: String, ...extra });

export const MONEY_PATTERN = '^-?[0-9]+\\.[0-9]{2}$';
export const QUANTITY_PATTERN = '^-?[0-9]+\\.[0-9]{3}$';
export const TIMESTAMP_PATTERN = '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z$';

/** A decimal number in a JSON string with exactly 2 decimals, never a JSON number. */
export const MoneyProperty = (extra: Extra = {}): PropertyDecorator =>
  ApiProperty({ type: String, pattern: MONEY_PATTERN, example: '1.20', ...extra });

/** A stock quantity: a decimal number in a JSON string with exactly 3 decimals. */
export const QuantityProperty = (extra: Extra = {}): PropertyDecorator =>
  ApiProperty({ type: String, pattern: QUANTITY_PATTERN, example: '12.000', ...extra });

/** UTC with milliseconds: `2026-10-02T09:30:00.000Z`. */
export const TimestampProperty = (extra: Extra = {}): PropertyDecorator =>
  ApiProperty({
    type: String,
    format: 'date-time',
    pattern: TIMESTAMP_PATTERN,
    example: '2026-10-02T09:30:00.000Z',
    ...extra,
  });

export const PageFields = {
  page: (): PropertyDecorator =>
    ApiProperty({ type: 'integer', minimum: 1, description: 'The page returned, from 1.', example: 1 }),
  pageSize: (): PropertyDecorator =>
    ApiProperty({ type: 'integer', minimum: 1, maximum: 100, description: 'Rows per page.', example: 50 }),
  total: (): PropertyDecorator =>
    ApiProperty({ type: 'integer', minimum: 0, description: 'Rows matching the filters, on all pages.', example: 152 }),
  totalPages: (): PropertyDecorator =>
    ApiProperty({ type: 'integer', minimum: 1, description: 'ceil(total / pageSize), at least 1.', example: 4 }),
};

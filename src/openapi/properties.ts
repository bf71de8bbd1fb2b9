import { ApiProperty } from '@nestjs/swagger';
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

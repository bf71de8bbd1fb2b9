import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, Max, Min, ValidateBy } from 'class-validator';
import { hasControlCharacters, isOpaqueId, isRfc3339DateTime } from './formats.js';

/**
 * Decorators for query and path parameters, written to the rules of decisions.md. Values arrive as
 * strings (the pipe has already refused repeated and empty ones); nothing is converted implicitly.
 */

/** Digits only, then the range: `1.5`, `-1`, `1e2` and `abc` stay strings and fail. */
export function IntegerParam(options: { min: number; max?: number }): PropertyDecorator {
  const range = options.max === undefined ? `at least ${options.min}` : `from ${options.min} to ${options.max}`;
  const message = `must be a whole number ${range}`;
  return applyDecorators(
    IsOptional(),
    Transform(({ value }) => (typeof value === 'string' && /^[0-9]+$/.test(value) ? Number(value) : value)),
    IsInt({ message }),
    Min(options.min, { message }),
    ...(options.max === undefined ? [] : [Max(options.max, { message })]),
  );
}

/** Exactly `true` or `false`; `false` really is false. */
export function BooleanParam(): PropertyDecorator {
  return applyDecorators(
    IsOptional(),
    Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value)),
    IsBoolean({ message: 'must be true or false' }),
  );
}

export function IdParam(options: { optional?: boolean } = {}): PropertyDecorator {
  return applyDecorators(
    ...(options.optional === false ? [] : [IsOptional()]),
    ValidateBy({
      name: 'isOpaqueId',
      validator: { validate: (value) => isOpaqueId(value), defaultMessage: () => 'must be an id of 1 to 128 characters from A-Z a-z 0-9 _ . : -' },
    }),
  );
}

export const MAX_TEXT_PARAM = 200;

/** 1 to 200 characters, no control characters. */
export function TextParam(): PropertyDecorator {
  return applyDecorators(
    IsOptional(),
    ValidateBy({
      name: 'isTextParam',
      validator: {
        validate: (value) => typeof value === 'string' && value.length >= 1 && value.length <= MAX_TEXT_PARAM && !hasControlCharacters(value),
        defaultMessage: () => `must be 1 to ${MAX_TEXT_PARAM} characters without control characters`,
      },
    }),
  );
}

export function DateTimeParam(): PropertyDecorator {
  return applyDecorators(
    IsOptional(),
    ValidateBy({
      name: 'isRfc3339DateTime',
      validator: {
        validate: (value) => isRfc3339DateTime(value),
        defaultMessage: () => 'must be an RFC 3339 date-time with Z or a numeric offset, for example 2026-01-31T09:00:00Z',
      },
    }),
  );
}

export function EnumParam(values: readonly string[]): PropertyDecorator {
  return applyDecorators(IsOptional(), IsIn([...values], { message: `must be one of ${values.join(', ')}` }));
}

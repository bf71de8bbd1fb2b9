import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, Max, Min, ValidateBy } from 'class-validator';
import { hasControlCharacters, type Instant, isOpaqueId, parseRfc3339DateTime } from '../values/formats.js';
import { FastRule, INVALID } from './fast-parse.js';

/**
 * Decorators for query and path parameters, written to the rules of docs/api-rules.md. Each one both
 * validates and documents its parameter (OpenAPI), so that the rules and the document cannot drift.
 * Values arrive as strings (the pipe has already refused repeated and empty ones); nothing is
 * converted implicitly.
 */

export interface ParamDoc {
  description: string;
  /** A value that finds something in the demo data (fixtures/demo.json). */
  example: string | number | boolean;
  default?: string | number | boolean;
}

export const ID_PATTERN_TEXT = '^[A-Za-z0-9_.:-]{1,128}$';

/** Where an optional parameter keeps its sample value (see doc). */
export const SAMPLE_EXTENSION = 'x-example';

/**
 * Every parameter has a sample value. Tools that build requests from the document fill `example`s in
 * (Swagger UI's "Try it out", Postman's importer), and a filled optional filter would narrow a request
 * the user did not mean to narrow. So a required parameter has its `example`, an optional one
 * `x-example`: Swagger UI shows that as the input's placeholder (swagger-ui-plugins.ts) and sends
 * nothing unless the user types it.
 */
const doc = (d: ParamDoc, schema: Record<string, unknown>, required = false): PropertyDecorator =>
  ApiProperty({
    required,
    description: d.description,
    ...(required ? { example: d.example } : { [SAMPLE_EXTENSION]: d.example }),
    default: d.default,
    ...schema,
  });

/** The OpenAPI format that holds every value up to `max`: Java's and C#'s int unless it takes a long. */
const integerFormat = (max: number | undefined): 'int32' | 'int64' =>
  max !== undefined && max <= 2 ** 31 - 1 ? 'int32' : 'int64';

const DIGITS = /^[0-9]+$/;

/** Digits only, then the range: `1.5`, `-1`, `1e2` and `abc` stay strings and fail. */
export function IntegerParam(options: { min: number; max?: number } & ParamDoc): PropertyDecorator {
  const range = options.max === undefined ? `at least ${options.min}` : `from ${options.min} to ${options.max}`;
  const message = `must be a whole number ${range}`;
  const inRange = (n: number): boolean => n >= options.min && (options.max === undefined || n <= options.max);
  return applyDecorators(
    FastRule({ parse: (raw) => (DIGITS.test(raw) && inRange(Number(raw)) ? Number(raw) : INVALID) }),
    IsOptional(),
    Transform(({ value }) => (typeof value === 'string' && DIGITS.test(value) ? Number(value) : value)),
    IsInt({ message }),
    Min(options.min, { message }),
    ...(options.max === undefined ? [] : [Max(options.max, { message })]),
    doc(options, { type: 'integer', format: integerFormat(options.max), minimum: options.min, maximum: options.max }),
  );
}

/** Exactly `true` or `false`; `false` really is false. */
export function BooleanParam(d: ParamDoc): PropertyDecorator {
  return applyDecorators(
    FastRule({ parse: (raw) => (raw === 'true' ? true : raw === 'false' ? false : INVALID) }),
    IsOptional(),
    Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value)),
    IsBoolean({ message: 'must be true or false' }),
    doc(d, { type: 'boolean' }),
  );
}

export function IdParam(d: ParamDoc & { required?: boolean }): PropertyDecorator {
  return applyDecorators(
    FastRule({ parse: (raw) => (isOpaqueId(raw) ? raw : INVALID), required: d.required }),
    ...(d.required ? [] : [IsOptional()]),
    ValidateBy({
      name: 'isOpaqueId',
      validator: {
        validate: (value) => isOpaqueId(value),
        defaultMessage: () => 'must be an id of 1 to 128 characters from A-Z a-z 0-9 _ . : -',
      },
    }),
    doc(d, { type: 'string', pattern: ID_PATTERN_TEXT, minLength: 1, maxLength: 128 }, d.required),
  );
}

/** `storeId` of every list route: the store scoping rule of the contract. */
export const StoreIdParam = (): PropertyDecorator =>
  IdParam({
    description:
      'Only this store. It must be one of the stores the key may read, otherwise the answer is 404 not_found.',
    example: 'sto_camden',
  });

/** `sku` of the lists that filter products: an exact match. */
export const SkuParam = (): PropertyDecorator =>
  TextParam({ description: 'Exact, case-sensitive SKU.', example: 'SD-100' });

/** `barcode` of the lists that filter products: an exact match. */
export const BarcodeParam = (): PropertyDecorator =>
  TextParam({ description: 'Exact, case-sensitive barcode.', example: '5010000000000' });

export const MAX_TEXT_PARAM = 200;

const isText = (value: unknown): value is string =>
  typeof value === 'string' && value !== '' && [...value].length <= MAX_TEXT_PARAM && !hasControlCharacters(value);

/**
 * 1 to 200 characters (code points, as JSON Schema counts them), no control characters; `check` is a
 * further rule of the parameter, and `pattern` documents it.
 */
export function TextParam(
  d: ParamDoc & { pattern?: string; check?: { test(value: string): boolean; message: string } },
): PropertyDecorator {
  const check = d.check;
  return applyDecorators(
    FastRule({ parse: (raw) => (isText(raw) && (check === undefined || check.test(raw)) ? raw : INVALID) }),
    IsOptional(),
    // The further rule first: when both fail, its message is the one a 400 gives (as it always was).
    ...(check === undefined
      ? []
      : [
          ValidateBy({
            name: 'textParamCheck',
            validator: {
              validate: (value) => typeof value !== 'string' || check.test(value),
              defaultMessage: () => check.message,
            },
          }),
        ]),
    ValidateBy({
      name: 'isTextParam',
      validator: {
        validate: (value) => isText(value),
        defaultMessage: () => `must be 1 to ${MAX_TEXT_PARAM} characters without control characters`,
      },
    }),
    doc(d, {
      type: 'string',
      minLength: 1,
      maxLength: MAX_TEXT_PARAM,
      pattern: d.pattern ?? '^[^\\u0000-\\u001f\\u007f]+$',
    }),
  );
}

/** Becomes an Instant: the exact milliseconds around the value, whatever its offset or fraction. */
export function DateTimeParam(d: ParamDoc): PropertyDecorator {
  return applyDecorators(
    FastRule({ parse: (raw) => parseRfc3339DateTime(raw) ?? INVALID }),
    IsOptional(),
    Transform(({ value }) => parseRfc3339DateTime(value) ?? value),
    ValidateBy({
      name: 'isRfc3339DateTime',
      validator: {
        validate: (value) => isInstant(value),
        defaultMessage: () =>
          'must be an RFC 3339 date-time with Z or a numeric offset, for example 2026-01-31T09:00:00Z',
      },
    }),
    doc(d, { type: 'string', format: 'date-time' }),
  );
}

const isInstant = (value: unknown): value is Instant =>
  typeof value === 'object' && value !== null && typeof (value as Instant).floorMs === 'number';

export function EnumParam(values: readonly string[], d: ParamDoc): PropertyDecorator {
  return applyDecorators(
    FastRule({ parse: (raw) => (values.includes(raw) ? raw : INVALID) }),
    IsOptional(),
    IsIn([...values], { message: `must be one of ${values.join(', ')}` }),
    doc(d, { type: 'string', enum: [...values] }),
  );
}

/**
 * An opaque cursor of a `Link: rel="next"` header: its form is checked here, what it stands for by
 * the service (CursorCodec). It continues a walk, so it cannot be combined with `page`.
 */
export function CursorParam(d: ParamDoc & { pattern: string }): PropertyDecorator {
  const form = new RegExp(d.pattern);
  return applyDecorators(
    FastRule({ parse: (raw) => (form.test(raw) ? raw : INVALID), requires: (object) => object.page === undefined }),
    IsOptional(),
    ValidateBy({
      name: 'isCursor',
      validator: {
        validate: (value, args) =>
          typeof value === 'string' && form.test(value) && (args?.object as { page?: unknown }).page === undefined,
        defaultMessage: (args) =>
          (args?.object as { page?: unknown }).page !== undefined
            ? 'cannot be combined with page: a cursor already says which page it is'
            : 'is not a cursor of this service: follow the Link header as given',
      },
    }),
    doc(d, { type: 'string', pattern: d.pattern, maxLength: 1023 }),
  );
}

/**
 * A sync position (Sync-Position header) to read the rows changed since. A sync walks every row of
 * the scope, inactive ones included, so it needs `activeOnly=false` and no other filter (only
 * `storeId`, `pageSize` and `cursor`); not `page` either, since only a cursor walk misses nothing.
 */
export function SyncPositionParam(d: ParamDoc & { pattern: string; filters: readonly string[] }): PropertyDecorator {
  const form = new RegExp(d.pattern);
  const conflicts = (object: Record<string, unknown>): string[] =>
    [...d.filters, 'page'].filter((name) => object[name] !== undefined && object[name] !== false);
  return applyDecorators(
    FastRule({
      parse: (raw) => (form.test(raw) ? raw : INVALID),
      requires: (object) => object.activeOnly === false && conflicts(object).length === 0,
    }),
    IsOptional(),
    ValidateBy({
      name: 'isSyncPosition',
      validator: {
        validate: (value, args) => {
          const object = args?.object as Record<string, unknown>;
          return (
            typeof value === 'string' &&
            form.test(value) &&
            object.activeOnly === false &&
            conflicts(object).length === 0
          );
        },
        defaultMessage: (args) => {
          const object = args?.object as Record<string, unknown>;
          if (typeof args?.value !== 'string' || !form.test(args.value))
            return 'is not a sync position of this service (Sync-Position header)';
          if (object.activeOnly !== false)
            return 'needs activeOnly=false: a sync must see the rows that were switched off';
          return `cannot be combined with ${conflicts(object).join(', ')}: a sync walks every row of the scope, following cursors`;
        },
      },
    }),
    doc(d, { type: 'string', pattern: d.pattern }),
  );
}

/**
 * The sync position a removals walk starts from (required): the one the round's changes walk started
 * from. No activeOnly: a removals feed lists rows that left the view, active or not.
 */
export function RemovalsPositionParam(d: ParamDoc & { pattern: string }): PropertyDecorator {
  const form = new RegExp(d.pattern);
  return applyDecorators(
    FastRule({ parse: (raw) => (form.test(raw) ? raw : INVALID), required: true }),
    ValidateBy({
      name: 'isSyncPosition',
      validator: {
        validate: (value) => typeof value === 'string' && form.test(value),
        defaultMessage: (args) =>
          args?.value === undefined
            ? "is required: the Sync-Position your copy holds (the one the round's changes walk started from)"
            : 'is not a sync position of this service (Sync-Position header)',
      },
    }),
    doc(d, { type: 'string', pattern: d.pattern }, true),
  );
}

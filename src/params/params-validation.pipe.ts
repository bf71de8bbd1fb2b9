import {
  type ArgumentMetadata,
  createParamDecorator,
  type ExecutionContext,
  Injectable,
  type PipeTransform,
} from '@nestjs/common';
import type { Request } from 'express';
import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, type ValidationError, validateSync } from 'class-validator';
import { ApiError, type ParameterError } from '../http/api-error.js';
import { parseFast } from './fast-parse.js';
import { NotUtf8Value } from './query-string.js';

type ParamClass = new () => object;

/** Validates `@Query()` and `@Param()` DTOs (see validateParameters). */
@Injectable()
export class ParamsValidationPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if ((metadata.type !== 'query' && metadata.type !== 'param') || !isParamClass(metadata.metatype)) return value;
    const errors: ParameterError[] = [];
    const instance = validateParameters(value, metadata.metatype, metadata.type === 'query' ? 'query' : 'path', errors);
    if (errors.length > 0) throw ApiError.validationFailed(errors);
    return instance;
  }
}

/**
 * The path and the query of an operation that has both, validated together so that one 400 lists
 * every failing parameter of both (as separate @Param() and @Query() the first would hide the other).
 * Gives the path DTO; the query DTO may only refuse, as for an operation without query parameters.
 */
export const PathAndQuery = createParamDecorator(
  (classes: { path: ParamClass; query: ParamClass }, ctx: ExecutionContext): object => {
    const req = ctx.switchToHttp().getRequest<Request>();
    const errors: ParameterError[] = [];
    const path = validateParameters(req.params, classes.path, 'path', errors);
    validateParameters(req.query, classes.query, 'query', errors);
    if (errors.length > 0) throw ApiError.validationFailed(errors);
    return path;
  },
);

/**
 * Validates raw parameters against a DTO to the rules of docs/api-rules.md: a repeated, unknown or empty
 * parameter is an error, and every parameter that fails gets one entry in `errors`.
 */
function validateParameters(
  value: unknown,
  metatype: ParamClass,
  location: ParameterError['in'],
  out: ParameterError[],
): object {
  const known = parameterNames(metatype);
  // The common case, every parameter valid, without class-transformer and class-validator.
  return parseFast(value, metatype, known) ?? validateFully(value, metatype, location, out, known);
}

/** The full validation: class-transformer and class-validator, with a message for every failure. */
export function validateFully(
  value: unknown,
  metatype: ParamClass,
  location: ParameterError['in'],
  out: ParameterError[],
  known: ReadonlySet<string> = parameterNames(metatype),
): object {
  const errors = new Map<string, ParameterError>();
  const fail = (name: string, message: string): void => {
    if (!errors.has(name)) errors.set(name, { in: location, name, message });
  };

  // Unknown names are refused here against the DTO's own list, not by looking them up on an
  // object: `toString`, `constructor` or `__proto__` would otherwise pass as known, or (assigned)
  // change the object's prototype instead of being a parameter.
  const plain: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [name, raw] of Object.entries((value ?? {}) as Record<string, unknown>)) {
    if (!known.has(name)) fail(name, 'is not a parameter of this operation');
    else if (Array.isArray(raw)) fail(name, 'must be given only once');
    else if (raw instanceof NotUtf8Value) fail(name, 'must be UTF-8 once percent-decoded');
    else if (typeof raw !== 'string') fail(name, 'must be a plain value');
    else if (raw === '') fail(name, 'must not be empty');
    else plain[name] = raw;
  }

  const instance = plainToInstance(metatype, plain);
  // A DTO without parameters has nothing to validate (and class-validator refuses such an object).
  const failures =
    known.size === 0
      ? []
      : validateSync(instance, { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true });
  for (const failure of failures) fail(failure.property, messageOf(failure));
  out.push(...errors.values());
  return instance;
}

const namesByClass = new WeakMap<ParamClass, ReadonlySet<string>>();

/** The parameters a DTO declares: the properties that carry validation decorators. */
export function parameterNames(metatype: ParamClass): ReadonlySet<string> {
  let names = namesByClass.get(metatype);
  if (names === undefined) {
    names = new Set(
      getMetadataStorage()
        .getTargetValidationMetadatas(metatype, '', true, false)
        .map((m) => m.propertyName),
    );
    namesByClass.set(metatype, names);
  }
  return names;
}

function messageOf(failure: ValidationError): string {
  const constraints = failure.constraints ?? {};
  if ('whitelistValidation' in constraints) return 'is not a parameter of this operation';
  return Object.values(constraints)[0] ?? 'is invalid';
}

function isParamClass(metatype: unknown): metatype is ParamClass {
  return typeof metatype === 'function' && ![String, Number, Boolean, Object, Array].includes(metatype as never);
}

import { type ArgumentMetadata, Injectable, type PipeTransform } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { type ValidationError, validateSync } from 'class-validator';
import { ApiError, type ParameterError } from '../http/api-error.js';

type ParamClass = new () => object;

/**
 * Validates `@Query()` and `@Param()` DTOs to the parameter rules of decisions.md: a repeated, unknown
 * or empty parameter is an error, and the 400 lists one entry for every parameter that failed.
 */
@Injectable()
export class ParamsValidationPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if ((metadata.type !== 'query' && metadata.type !== 'param') || !isParamClass(metadata.metatype)) return value;
    const location = metadata.type === 'query' ? 'query' : 'path';
    const errors = new Map<string, ParameterError>();
    const fail = (name: string, message: string): void => {
      if (!errors.has(name)) errors.set(name, { in: location, name, message });
    };

    const plain: Record<string, unknown> = {};
    for (const [name, raw] of Object.entries((value ?? {}) as Record<string, unknown>)) {
      if (Array.isArray(raw)) fail(name, 'must be given only once');
      else if (typeof raw !== 'string') fail(name, 'must be a plain value');
      else if (raw === '') fail(name, 'must not be empty');
      else plain[name] = raw;
    }

    const instance = plainToInstance(metadata.metatype, plain);
    const failures = validateSync(instance, { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true });
    for (const failure of failures) fail(failure.property, messageOf(failure));
    if (errors.size > 0) throw ApiError.validationFailed([...errors.values()]);
    return instance;
  }
}

function messageOf(failure: ValidationError): string {
  const constraints = failure.constraints ?? {};
  if ('whitelistValidation' in constraints) return 'is not a parameter of this operation';
  return Object.values(constraints)[0] ?? 'is invalid';
}

function isParamClass(metatype: unknown): metatype is ParamClass {
  return typeof metatype === 'function' && ![String, Number, Boolean, Object, Array].includes(metatype as never);
}

import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException } from '@nestjs/common';
import type { Request, Response } from 'express';
import { DatabaseBusyError, DatabaseOverloadedError } from '../database/deadline.js';
import { ApiError, type ErrorCode, type ParameterError } from './api-error.js';
import { generateRequestId, REQUEST_ID_HEADER } from './request-id.middleware.js';

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'validation_failed',
  401: 'unauthorized',
  403: 'scope_denied',
  404: 'not_found',
  405: 'not_found',
  413: 'payload_too_large',
  429: 'rate_limited',
};

/** Turns whatever was thrown into the contract's error. Unknown errors become a generic 500. */
export function toApiError(exception: unknown): ApiError {
  if (exception instanceof ApiError) return exception;
  // A read refused admission (docs/rate-limits.md#overload): the client is over its share (429) or
  // the service over capacity (503); either way come back after Retry-After.
  if (exception instanceof DatabaseBusyError) return ApiError.rateLimited(exception.retryAfterSeconds);
  if (exception instanceof DatabaseOverloadedError) return ApiError.serviceUnavailable(exception.retryAfterSeconds);
  const status =
    exception instanceof HttpException
      ? exception.getStatus()
      : // Errors of Express and its parsers carry their status (for example a malformed URL is a 400).
        Number(
          (exception as { status?: unknown; statusCode?: unknown })?.status ??
            (exception as { statusCode?: unknown })?.statusCode,
        );
  switch (CODE_BY_STATUS[status]) {
    case 'validation_failed':
      return ApiError.malformed('The request is malformed.');
    case 'unauthorized':
      return ApiError.unauthorized();
    case 'scope_denied':
      return ApiError.scopeDenied([]);
    case 'not_found':
      return ApiError.notFound();
    case 'payload_too_large':
      return ApiError.payloadTooLarge();
    case 'rate_limited':
      return ApiError.rateLimited(1);
    default:
      return ApiError.internal();
  }
}

/** The one place that writes error responses: `{ "error": { code, message, details, requestId } }`. */
@Catch()
export class ErrorEnvelopeFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    const error = toApiError(exception);
    const requestId = req.requestId ?? generateRequestId();
    // A 503 is a refusal for load (docs/rate-limits.md#overload), not a fault: it has no cause to log.
    if (error.getStatus() >= 500 && error.getStatus() !== 503) {
      // The cause goes to the log, never to the client: as the err of the request's own log line
      // (the request observer reads res.err), beside its requestId, client and route.
      (res as Response & { err?: unknown }).err =
        exception instanceof Error ? exception : new Error(describe(exception));
    }
    // The request's log line names the refused parameters (names only: a value may be a secret).
    const refused = (error.details as { errors?: ParameterError[] }).errors;
    if (error.code === 'validation_failed' && refused !== undefined && refused.length > 0)
      (res as Response & { refusedParameters?: string[] }).refusedParameters = refused.map((e) => `${e.in} ${e.name}`);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.setHeader(REQUEST_ID_HEADER, requestId);
    for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
    res.status(error.getStatus()).json({
      error: { code: error.code, message: error.message, details: error.details, requestId },
    });
  }
}

function describe(exception: unknown): string {
  if (exception instanceof Error) return `${exception.name}: ${exception.message}`;
  return String(exception);
}

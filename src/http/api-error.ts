import { HttpException } from '@nestjs/common';

export const ERROR_CODES = [
  'validation_failed',
  'unauthorized',
  'scope_denied',
  'not_found',
  'payload_too_large',
  'rate_limited',
  'internal_error',
  'service_unavailable',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ParameterError {
  in: 'query' | 'path';
  name: string;
  message: string;
}

/** An error of the contract: its status, code, message and details are exactly what the client sees. */
export class ApiError extends HttpException {
  constructor(
    status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message, status);
  }

  /**
   * The message names the parameters too, for whoever reads only the message (a log line, an
   * exception's text): one parameter with what it must be, several by name (details has each rule).
   */
  static validationFailed(errors: ParameterError[]): ApiError {
    const [first] = errors;
    const message =
      errors.length === 1
        ? `Invalid ${first.in} parameter ${first.name}: ${first.message.replace(/\.$/, '')}.`
        : `Invalid parameters: ${errors.map((e) => e.name).join(', ')}.`;
    return new ApiError(400, 'validation_failed', message, { errors });
  }

  /** A request that is not a valid request at all (rather than one with a bad parameter). */
  static malformed(message: string): ApiError {
    return new ApiError(400, 'validation_failed', message, { errors: [] });
  }

  /**
   * A request whose body stopped arriving or could not be parsed: the connection closes after the
   * answer, since the rest of the body would be read as the next request.
   */
  static incompleteBody(message: string): ApiError {
    return new ApiError(400, 'validation_failed', message, { errors: [] }, { Connection: 'close' });
  }

  /** One message and no details whatever the cause, so that a caller cannot tell the causes apart. */
  static unauthorized(): ApiError {
    return new ApiError(
      401,
      'unauthorized',
      'A valid API key is required in the Authorization header (Bearer).',
      {},
      {
        'WWW-Authenticate': 'Bearer',
      },
    );
  }

  static scopeDenied(requiredScopes: string[]): ApiError {
    return new ApiError(403, 'scope_denied', 'The API key does not have the scope this operation requires.', {
      requiredScopes,
    });
  }

  static notFound(): ApiError {
    return new ApiError(404, 'not_found', 'The requested resource was not found.');
  }

  static payloadTooLarge(): ApiError {
    return new ApiError(
      413,
      'payload_too_large',
      'The request body is larger than this service accepts.',
      {},
      { Connection: 'close' },
    );
  }

  static rateLimited(retryAfterSeconds: number): ApiError {
    return new ApiError(
      429,
      'rate_limited',
      'Too many requests. Retry after the number of seconds in Retry-After.',
      { retryAfterSeconds },
      { 'Retry-After': String(retryAfterSeconds) },
    );
  }

  /**
   * The service is over capacity and this client within its share (docs/rate-limits.md#overload):
   * nothing was done, and the same request may succeed after Retry-After.
   */
  static serviceUnavailable(retryAfterSeconds: number): ApiError {
    return new ApiError(
      503,
      'service_unavailable',
      'The service is over capacity. Retry after the number of seconds in Retry-After.',
      { retryAfterSeconds },
      { 'Retry-After': String(retryAfterSeconds) },
    );
  }

  static internal(): ApiError {
    return new ApiError(
      500,
      'internal_error',
      'An internal error occurred. Report the requestId if the problem persists.',
    );
  }
}

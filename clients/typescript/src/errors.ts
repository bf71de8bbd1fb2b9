import type { DocumentedDetails, ErrorBody, ErrorCode } from './types.js';

/** One failing parameter of a validation_failed error. */
export type ParameterError = { in: 'query' | 'path'; name: string; message: string };

type NoDetails = Record<string, never>;

/**
 * `details` of each error code (docs/api-rules.md, "Errors"). `unexpected_response` is the client's
 * own: an answer that is not the service's JSON error envelope (a proxy's or gateway's page, say).
 */
export type ErrorDetailsByCode = {
  validation_failed: { errors: ParameterError[] };
  unauthorized: NoDetails;
  scope_denied: { requiredScopes: string[] };
  not_found: NoDetails;
  payload_too_large: NoDetails;
  rate_limited: { retryAfterSeconds: number };
  internal_error: NoDetails;
  service_unavailable: { retryAfterSeconds: number };
  unexpected_response: NoDetails;
};

export type ApiErrorCode = keyof ErrorDetailsByCode;

// Checked when the client compiles: every code of openapi.json has its details here, and these
// details fit what openapi.json says of `details` (regenerated types that disagree fail the build).
type Assert<T extends true> = T;
type _EveryCodeHasDetails = Assert<[ErrorCode] extends [ApiErrorCode] ? true : false>;
type _DetailsFitTheDocument = Assert<
  { [C in ErrorCode]: [ErrorDetailsByCode[C]] extends [DocumentedDetails<C>] ? true : false }[ErrorCode] extends true
    ? true
    : false
>;

/**
 * An error answer of the service (any status but 2xx, after the retries it was worth), with the
 * envelope's fields. Narrow it by code with `isApiError(error, 'validation_failed')` to get typed
 * `details`.
 */
export class ApiError<C extends ApiErrorCode = ApiErrorCode> extends Error {
  override readonly name = 'ApiError';

  constructor(
    /** The HTTP status. */
    readonly status: number,
    /** What went wrong: match on this, never on `message`. */
    readonly code: C,
    message: string,
    /** The details of this code (see ErrorDetailsByCode). */
    readonly details: ErrorDetailsByCode[C],
    /** The request id to quote when reporting a problem (null only in an unexpected response without one). */
    readonly requestId: string | null,
    /** How many times the request was sent. */
    readonly attempts: number,
  ) {
    super(message);
  }
}

/** Whether `value` is an ApiError (of one of `codes`, when given), with the details of its code. */
export function isApiError<C extends ApiErrorCode = ApiErrorCode>(value: unknown, ...codes: C[]): value is ApiError<C> {
  return value instanceof ApiError && (codes.length === 0 || (codes as ApiErrorCode[]).includes(value.code));
}

/** The service could not be reached (network error or timeout) on any of the attempts. */
export class ApiConnectionError extends Error {
  override readonly name = 'ApiConnectionError';

  constructor(
    message: string,
    /** How many times the request was sent. */
    readonly attempts: number,
    options: { cause: unknown },
  ) {
    super(message, options);
  }
}

/** The position of a sync round was asked for before the round walked to its end. */
export class IncompleteSyncError extends Error {
  override readonly name = 'IncompleteSyncError';
}

const SERVICE_CODES = [
  'validation_failed',
  'unauthorized',
  'scope_denied',
  'not_found',
  'payload_too_large',
  'rate_limited',
  'internal_error',
  'service_unavailable',
] as const satisfies readonly ErrorCode[];
type _EveryCodeIsRecognised = Assert<[ErrorCode] extends [(typeof SERVICE_CODES)[number]] ? true : false>;
const isServiceCode = (code: string): code is ErrorCode => (SERVICE_CODES as readonly string[]).includes(code);

/** The ApiError of an answer that is not a 2xx, from its envelope when it has one. */
export function errorOfResponse(status: number, headers: Headers, text: string, attempts: number): ApiError {
  const requestId = headers.get('X-Request-Id');
  let error: Partial<ErrorBody> | undefined;
  try {
    error = (JSON.parse(text) as { error?: Partial<ErrorBody> }).error;
  } catch {
    error = undefined;
  }
  if (error && typeof error.code === 'string' && isServiceCode(error.code) && typeof error.message === 'string') {
    const details = (error.details ?? {}) as ErrorDetailsByCode[ErrorCode];
    return new ApiError(status, error.code, error.message, details, error.requestId ?? requestId, attempts);
  }
  return new ApiError(
    status,
    'unexpected_response',
    `HTTP ${status} without the service's error envelope`,
    {},
    requestId,
    attempts,
  );
}

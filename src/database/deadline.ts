/** The request ran out of time for the database: a 500, promptly, whatever the database does. */
export class DatabaseDeadlineError extends Error {
  override readonly name = 'DatabaseDeadlineError';
}

/**
 * No capacity for a read of a client over its share (docs/rate-limits.md#overload): the contract's
 * 429 `rate_limited`, with Retry-After, so that the client comes back later instead of waiting.
 */
export class DatabaseBusyError extends Error {
  override readonly name = 'DatabaseBusyError';

  constructor(readonly retryAfterSeconds: number) {
    super('no capacity for a read of a client over its share');
  }
}

/**
 * No capacity for a read although its client is within its share (the service is over capacity):
 * a 503 `service_unavailable` with Retry-After, answered at once rather than failed at the deadline
 * (docs/rate-limits.md#overload).
 */
export class DatabaseOverloadedError extends Error {
  override readonly name = 'DatabaseOverloadedError';

  constructor(readonly retryAfterSeconds: number) {
    super('the service is over capacity');
  }
}

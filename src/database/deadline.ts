/** The request ran out of time for the database: a 500, promptly, whatever the database does. */
export class DatabaseDeadlineError extends Error {
  override readonly name = 'DatabaseDeadlineError';
}

/**
 * No capacity for an expensive read within the admission wait: the contract's 429 `rate_limited`,
 * with Retry-After, so that the client comes back later instead of waiting (docs/rate-limits.md).
 */
export class DatabaseBusyError extends Error {
  override readonly name = 'DatabaseBusyError';

  constructor(readonly retryAfterSeconds: number) {
    super('no capacity for an expensive read within the admission wait');
  }
}

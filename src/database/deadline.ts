/** The request ran out of time for the database: a 500, promptly, whatever the database does. */
export class DatabaseDeadlineError extends Error {
  override readonly name = 'DatabaseDeadlineError';
}

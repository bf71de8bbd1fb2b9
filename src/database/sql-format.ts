/**
 * SQL that formats a timestamptz the way the contract writes timestamps (`2026-10-01T08:00:00.000Z`:
 * UTC, always milliseconds). PostgreSQL formats it, which costs far less than the driver parsing a
 * Date per value and the view formatting it back. Strings in this one format compare in time order.
 */
export const isoMillisSql = (expression: string): string =>
  `to_char((${expression}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

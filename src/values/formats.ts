/** The value formats of the contract, shared by query parameters and the data set importer. */

export const OPAQUE_ID_PATTERN = /^[A-Za-z0-9_.:-]{1,128}$/;
export const isOpaqueId = (value: unknown): value is string =>
  typeof value === 'string' && OPAQUE_ID_PATTERN.test(value);

// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;
export const hasControlCharacters = (value: string): boolean => CONTROL_CHARACTERS.test(value);

/**
 * The first lone surrogate of a string (`\ud800` without its pair, which JSON.parse accepts from an
 * escape), written as an escape; null when the string is valid Unicode. Such a string has no UTF-8
 * form: PostgreSQL would store U+FFFD in its place (text) or refuse it (jsonb).
 */
export function loneSurrogate(value: string): string | null {
  const found = /\p{Surrogate}/u.exec(value);
  return found === null ? null : `\\u${found[0].charCodeAt(0).toString(16)}`;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))$/;

/** Milliseconds since the epoch of a UTC calendar time; unlike Date.UTC, years 0 to 99 are themselves, not 1900 to 1999. */
function utcMs(year: number, month: number, day: number, hour = 0, minute = 0, second = 0, ms = 0): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, ms);
  return date.getTime();
}

const daysInMonth = (year: number, month: number): number => new Date(utcMs(year, month + 1, 0)).getUTCDate();

/**
 * An RFC 3339 date-time as the two whole milliseconds around it (equal when it has no finer digit).
 * Stored times have millisecond precision, so `stored >= T` is `stored >= ceilMs` and `stored <= T`
 * is `stored <= floorMs`: exact for any fraction, where PostgreSQL would round a seventh digit.
 */
export interface Instant {
  readonly floorMs: number;
  readonly ceilMs: number;
}

/**
 * Parses an RFC 3339 date-time with a `Z` or numeric offset: any offset to ±23:59 (PostgreSQL refuses
 * past ±15:59), any number of fraction digits, years 0000 to 9999 and a leap second (`:60`). Refuses
 * dates alone, missing offsets and impossible calendar dates (`2026-02-30`), which `Date.parse`
 * would silently roll over.
 */
export function parseRfc3339DateTime(value: unknown): Instant | null {
  if (typeof value !== 'string') return null;
  const m = RFC3339.exec(value);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 60) return null;
  const [offsetHours, offsetMinutes] = m[9] === undefined ? [0, 0] : [Number(m[9]), Number(m[10])];
  if (offsetHours > 23 || offsetMinutes > 59) return null;
  const offsetMs = (m[8].startsWith('-') ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000;
  if (second === 60) {
    // A leap second lies after the minute's last millisecond and before the next minute.
    const lastMs = utcMs(year, month, day, hour, minute, 59, 999) - offsetMs;
    return { floorMs: lastMs, ceilMs: lastMs + 1 };
  }
  const fraction = (m[7] ?? '.').slice(1);
  const floorMs = utcMs(year, month, day, hour, minute, second, Number(fraction.slice(0, 3).padEnd(3, '0'))) - offsetMs;
  return { floorMs, ceilMs: /[1-9]/.test(fraction.slice(3)) ? floorMs + 1 : floorMs };
}

export const isRfc3339DateTime = (value: unknown): value is string => parseRfc3339DateTime(value) !== null;

/** The first and last millisecond that the contract's timestamp format (`YYYY-MM-DDTHH:mm:ss.sssZ`) can write. */
export const MIN_TIMESTAMP_MS = utcMs(1, 1, 1);
export const MAX_TIMESTAMP_MS = utcMs(9999, 12, 31, 23, 59, 59, 999);

/**
 * A millisecond instant as PostgreSQL timestamptz input, in UTC, for any year (one before year 1 is
 * written the way PostgreSQL reads it, with BC). Date-times reach the database only through this,
 * never as the caller's text, whose offset PostgreSQL may refuse.
 */
export function toPostgresTimestamp(ms: number): string {
  const iso = new Date(ms).toISOString(); // ±YYYYYY-… outside years 0 to 9999
  const m = /^([+-]?\d+)(-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2}\.\d{3})Z$/.exec(iso)!;
  const year = Number(m[1]);
  return year >= 1
    ? `${String(year).padStart(4, '0')}${m[2]} ${m[3]}+00`
    : `${String(1 - year).padStart(4, '0')}${m[2]} ${m[3]}+00 BC`;
}

/**
 * A decimal number written as a string: optional minus, digits, optional fraction. Digits past
 * `maxFractionDigits` may only be zeros, so that storing it in a column of that scale never rounds.
 */
export function isDecimalString(
  value: unknown,
  maxIntegerDigits: number,
  maxFractionDigits = Infinity,
): value is string {
  if (typeof value !== 'string') return false;
  const m = /^-?(\d+)(?:\.(\d+))?$/.exec(value);
  if (!m) return false;
  if (m[1].replace(/^0+(?=\d)/, '').length > maxIntegerDigits) return false;
  return m[2] === undefined || /^0*$/.test(m[2].slice(maxFractionDigits));
}

/** The fraction of seconds of an RFC 3339 date-time has no non-zero digit past `digits`. */
export function hasSecondFractionWithin(value: string, digits: number): boolean {
  const fraction = /\.(\d+)/.exec(value)?.[1] ?? '';
  return /^0*$/.test(fraction.slice(digits));
}

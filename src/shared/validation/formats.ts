/** The value formats of the contract, shared by query parameters and the data set importer. */

export const OPAQUE_ID_PATTERN = /^[A-Za-z0-9_.:-]{1,128}$/;
export const isOpaqueId = (value: unknown): value is string => typeof value === 'string' && OPAQUE_ID_PATTERN.test(value);

// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;
export const hasControlCharacters = (value: string): boolean => CONTROL_CHARACTERS.test(value);

const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-](\d{2}):(\d{2}))$/;

const daysInMonth = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();

/**
 * RFC 3339 date-time with a `Z` or numeric offset. Rejects dates alone, missing offsets and impossible
 * calendar dates (`2026-02-30`), which `Date.parse` would silently roll over.
 */
export function isRfc3339DateTime(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const m = RFC3339.exec(value);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number);
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return false;
  if (hour > 23 || minute > 59 || second > 59) return false;
  if (m[9] !== undefined && (Number(m[9]) > 23 || Number(m[10]) > 59)) return false;
  return true;
}

/**
 * A decimal number written as a string: optional minus, digits, optional fraction. Digits past
 * `maxFractionDigits` may only be zeros, so that storing it in a column of that scale never rounds.
 */
export function isDecimalString(value: unknown, maxIntegerDigits: number, maxFractionDigits = Infinity): value is string {
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

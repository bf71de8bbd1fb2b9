import {
  hasControlCharacters,
  hasSecondFractionWithin,
  isDecimalString,
  isOpaqueId,
  isRfc3339DateTime,
  loneSurrogate,
  MAX_TIMESTAMP_MS,
  MIN_TIMESTAMP_MS,
  parseRfc3339DateTime,
  toPostgresTimestamp,
} from './formats.js';

describe('isRfc3339DateTime', () => {
  it.each([
    '2026-01-31T09:00:00Z',
    '2026-01-31T10:00:00.250+01:00',
    '2024-02-29T00:00:00Z',
    '2026-12-31T23:59:59.999999-12:00',
    '2026-01-31t09:00:00z',
    '0000-02-29T00:00:00Z',
    '2016-12-31T23:59:60Z',
    '2026-01-31T09:00:00.1234567891Z',
  ])('accepts %s', (value) => expect(isRfc3339DateTime(value)).toBe(true));
  it.each([
    '2026-01-31',
    '2026-01-31T09:00:00',
    '2026-02-30T00:00:00Z',
    '2025-02-29T00:00:00Z',
    '2026-13-01T00:00:00Z',
    '2026-01-31T24:00:00Z',
    '2026-01-31T09:60:00Z',
    '2026-01-31 09:00:00Z',
    '2026-01-31T09:00:00+1:00',
    '2026-01-31T09:00:00+24:00',
    '2026-01-31T09:00:61Z',
    '0001-02-29T00:00:00Z',
    '2026-01-31T09:00:00.Z',
    '',
    'now',
  ])('refuses %s', (value) => expect(isRfc3339DateTime(value)).toBe(false));
});

describe('parseRfc3339DateTime', () => {
  const at = (iso: string): number => Date.parse(iso);
  it('gives the exact millisecond, applying any offset up to ±23:59', () => {
    expect(parseRfc3339DateTime('2026-01-31T10:00:00.250+01:00')).toEqual({
      floorMs: at('2026-01-31T09:00:00.250Z'),
      ceilMs: at('2026-01-31T09:00:00.250Z'),
    });
    expect(parseRfc3339DateTime('2026-01-01T00:00:00+20:00')!.floorMs).toBe(at('2025-12-31T04:00:00.000Z'));
    expect(parseRfc3339DateTime('2026-01-01T00:00:00-23:59')!.floorMs).toBe(at('2026-01-01T23:59:00.000Z'));
  });
  it('brackets a fraction finer than milliseconds by the milliseconds around it', () => {
    expect(parseRfc3339DateTime('2025-06-01T10:00:00.0009999Z')).toEqual({
      floorMs: at('2025-06-01T10:00:00.000Z'),
      ceilMs: at('2025-06-01T10:00:00.001Z'),
    });
    expect(parseRfc3339DateTime('2025-06-01T10:00:00.123000000Z')).toEqual({
      floorMs: at('2025-06-01T10:00:00.123Z'),
      ceilMs: at('2025-06-01T10:00:00.123Z'),
    });
  });
  it('puts a leap second after the last millisecond of its minute and before the next minute', () => {
    expect(parseRfc3339DateTime('2016-12-31T23:59:60.5Z')).toEqual({
      floorMs: at('2016-12-31T23:59:59.999Z'),
      ceilMs: at('2017-01-01T00:00:00.000Z'),
    });
    expect(parseRfc3339DateTime('2017-01-01T00:59:60+01:00')).toEqual({
      floorMs: at('2016-12-31T23:59:59.999Z'),
      ceilMs: at('2017-01-01T00:00:00.000Z'),
    });
  });
  it('reads years 1 to 99 as themselves', () => {
    expect(parseRfc3339DateTime('0001-01-01T00:00:00Z')!.floorMs).toBe(MIN_TIMESTAMP_MS);
    expect(new Date(parseRfc3339DateTime('0099-12-31T23:59:59.999Z')!.floorMs).toISOString()).toBe(
      '0099-12-31T23:59:59.999Z',
    );
  });
  it('refuses what isRfc3339DateTime refuses', () => {
    for (const value of ['2026-02-30T00:00:00Z', '2026-01-31T09:00:00', '2026-01-31T09:00:00+24:00', 42, null])
      expect(parseRfc3339DateTime(value)).toBeNull();
  });
});

describe('toPostgresTimestamp', () => {
  it('writes UTC with milliseconds, BC before year 1 and five digits after 9999', () => {
    expect(toPostgresTimestamp(Date.parse('2026-01-31T09:00:00.250Z'))).toBe('2026-01-31 09:00:00.250+00');
    expect(toPostgresTimestamp(MIN_TIMESTAMP_MS - 60_000)).toBe('0001-12-31 23:59:00.000+00 BC');
    expect(toPostgresTimestamp(MAX_TIMESTAMP_MS + 1)).toBe('10000-01-01 00:00:00.000+00');
  });
});

describe('isOpaqueId', () => {
  it('accepts 1 to 128 characters of A-Z a-z 0-9 _ . : -', () => {
    expect(isOpaqueId('a')).toBe(true);
    expect(isOpaqueId('prd_A.b:c-1')).toBe(true);
    expect(isOpaqueId('x'.repeat(128))).toBe(true);
  });
  it.each(['', 'x'.repeat(129), 'a b', 'a/b', 'é', 'a%20'])('refuses %j', (value) =>
    expect(isOpaqueId(value)).toBe(false),
  );
});

describe('isDecimalString', () => {
  it('accepts decimals within the integer digit limit', () => {
    expect(isDecimalString('12.50', 5)).toBe(true);
    expect(isDecimalString('-2.500', 5)).toBe(true);
    expect(isDecimalString('00012', 2)).toBe(true);
  });
  it.each(['1e3', '1.', '.5', '+1', ' 1', '12345.6', 'abc', ''])('refuses %j', (value) =>
    expect(isDecimalString(value, 4)).toBe(false),
  );
  it('refuses numbers that are not strings', () => expect(isDecimalString(1.5, 4)).toBe(false));
  it('refuses more fraction digits than the scale unless they are zeros (a stored value is never rounded)', () => {
    expect(isDecimalString('1.20', 12, 2)).toBe(true);
    expect(isDecimalString('1.2000', 12, 2)).toBe(true);
    expect(isDecimalString('7', 12, 2)).toBe(true);
    expect(isDecimalString('1.205', 12, 2)).toBe(false);
    expect(isDecimalString('48.0004', 11, 3)).toBe(false);
  });
});

describe('hasControlCharacters', () => {
  it('finds U+0000 to U+001F and U+007F only', () => {
    expect(hasControlCharacters('a\u0000b')).toBe(true);
    expect(hasControlCharacters('tab\there')).toBe(true);
    expect(hasControlCharacters('del\u007f')).toBe(true);
    expect(hasControlCharacters('café ☕ 100%')).toBe(false);
  });
});

describe('loneSurrogate', () => {
  it('finds a high or low surrogate without its pair, and accepts pairs', () => {
    expect(loneSurrogate('a\ud800b')).toBe('\\ud800');
    expect(loneSurrogate('\ude00 first')).toBe('\\ude00');
    expect(loneSurrogate('reversed \ude00\ud83d')).toBe('\\ude00');
    expect(loneSurrogate('smile \ud83d\ude00, café')).toBeNull();
  });
});

describe('hasSecondFractionWithin', () => {
  it('allows up to the given digits, and zeros past them', () => {
    expect(hasSecondFractionWithin('2026-10-02T09:30:00Z', 3)).toBe(true);
    expect(hasSecondFractionWithin('2026-10-02T09:30:00.123Z', 3)).toBe(true);
    expect(hasSecondFractionWithin('2026-10-02T09:30:00.123000+01:00', 3)).toBe(true);
    expect(hasSecondFractionWithin('2026-10-02T09:30:00.9999Z', 3)).toBe(false);
  });
});

import { formatDecimal, trimDecimal } from './decimal.js';

describe('formatDecimal', () => {
  it.each([
    ['1.2', 2, '1.20'],
    ['3', 2, '3.00'],
    ['20', 2, '20.00'],
    ['0.125', 2, '0.13'],
    ['0.124', 2, '0.12'],
    ['-0.125', 2, '-0.13'],
    ['9.995', 2, '10.00'],
    ['99.999', 2, '100.00'],
    ['-2.5', 3, '-2.500'],
    ['0.001', 3, '0.001'],
    ['12', 3, '12.000'],
    ['-0.0001', 3, '0.000'],
    ['123456789012.345', 2, '123456789012.35'],
    ['007.5', 2, '7.50'],
    ['2.5', 0, '3'],
    // Already at the scale: returned as they are, unless not in canonical form.
    ['1.20', 2, '1.20'],
    ['-0.50', 2, '-0.50'],
    ['0.000', 3, '0.000'],
    ['-0.000', 3, '0.000'],
    ['00.10', 2, '0.10'],
    ['-12.345', 3, '-12.345'],
  ])('%s at %d decimals is %s', (value, scale, expected) => expect(formatDecimal(value, scale)).toBe(expected));

  it('never goes through floating point', () => {
    expect(formatDecimal('1.005', 2)).toBe('1.01'); // Number(1.005).toFixed(2) is "1.00"
    expect(formatDecimal('9007199254740993.5', 0)).toBe('9007199254740994');
  });

  it('refuses what is not a decimal', () => expect(() => formatDecimal('1e3', 2)).toThrow());
});

describe('trimDecimal', () => {
  it.each([
    ['10.50', '10.5'],
    ['20.00', '20'],
    ['7', '7'],
    ['0.10', '0.1'],
  ])('%s is %s', (value, expected) => expect(trimDecimal(value)).toBe(expected));
});

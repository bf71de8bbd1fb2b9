import { compareDecimal } from '../../values/decimal.js';
import { deriveAvailability } from './availability.js';

describe('deriveAvailability', () => {
  it.each([
    [false, '50', '10', 'not_tracked'],
    [false, '0', '10', 'not_tracked'],
    [false, '-3', '10', 'not_tracked'],
    [true, '0', '10', 'out_of_stock'],
    [true, '0.000', '0', 'out_of_stock'],
    [true, '-2.500', '10', 'out_of_stock'],
    [true, '-0.001', '0', 'out_of_stock'],
    [true, '0.001', '10', 'low_stock'],
    [true, '10', '10', 'low_stock'],
    [true, '10.000', '10', 'low_stock'],
    [true, '9.999', '10', 'low_stock'],
    [true, '10.001', '10', 'in_stock'],
    [true, '0.001', '0', 'in_stock'],
    [true, '48', '12', 'in_stock'],
    [true, '100', '99.999', 'in_stock'],
    [true, '0.1', '0.3', 'low_stock'],
    [true, '0.3', '0.1', 'in_stock'],
  ])('trackStock=%s quantity=%s reorderLevel=%s is %s', (track, quantity, reorder, expected) => {
    expect(deriveAvailability(track, quantity, reorder)).toBe(expected);
  });

  it('compares exactly where floating point would not', () => {
    // 0.1 + 0.2 is 0.30000000000000004 in floating point; as decimals 0.3 <= 0.3.
    expect(deriveAvailability(true, '0.3', '0.300')).toBe('low_stock');
    expect(deriveAvailability(true, '12345678901.001', '12345678901')).toBe('in_stock');
  });
});

describe('compareDecimal', () => {
  it.each([
    ['1', '1.000', 0],
    ['-0', '0', 0],
    ['-0.000', '0.000', 0],
    ['2', '10', -1],
    ['10', '2', 1],
    ['-1', '1', -1],
    ['-2', '-10', 1],
    ['0.01', '0.001', 1],
    ['007', '7', 0],
    ['-1.5', '-1.25', -1],
  ])('compare(%s, %s) is %d', (a, b, expected) => expect(compareDecimal(a, b)).toBe(expected));
});

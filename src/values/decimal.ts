// Digits, one point, digits; no leading zero before another digit, no minus on zero.
const CANONICAL = /^(?:0|-?[1-9]\d*|-0(?=\.\d*[1-9]))\.\d+$/;

/**
 * Exact decimal formatting for strings (never through floating point): rounds half away from zero,
 * as PostgreSQL does for numeric, to exactly `scale` decimals.
 */
export function formatDecimal(value: string, scale: number): string {
  // Columns of the same scale already come in the right form ("1.20"): only check them.
  if (scale > 0 && value.length > scale + 1 && value[value.length - scale - 1] === '.' && CANONICAL.test(value))
    return value;
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(value.trim());
  if (!m) throw new Error(`not a decimal number: ${value}`);
  const [, sign, intPart, fracRaw = ''] = m;
  let digits = intPart + fracRaw.padEnd(scale + 1, '0').slice(0, scale + 1);
  const roundUp = Number(digits[digits.length - 1]) >= 5;
  digits = digits.slice(0, -1);
  if (roundUp) {
    const chars = digits.split('');
    let i = chars.length - 1;
    while (i >= 0) {
      if (chars[i] === '9') {
        chars[i] = '0';
        i--;
      } else {
        chars[i] = String(Number(chars[i]) + 1);
        break;
      }
    }
    digits = (i < 0 ? '1' : '') + chars.join('');
  }
  const whole = digits.slice(0, digits.length - scale).replace(/^0+(?=\d)/, '') || '0';
  const frac = scale > 0 ? '.' + digits.slice(digits.length - scale) : '';
  const isZero = /^[0.]+$/.test(whole + frac);
  return (sign === '-' && !isZero ? '-' : '') + whole + frac;
}

/** `"10.50"` → `"10.5"`, `"20.00"` → `"20"`: for prose, not for API fields. */
export function trimDecimal(value: string): string {
  return value.includes('.') ? value.replace(/0+$/, '').replace(/\.$/, '') : value;
}

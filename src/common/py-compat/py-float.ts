import { formatFixed } from './py-round';

/**
 * Python's `round(x, digits)` for the ratios /rooms publishes (contract §20.3): the exact binary value
 * rounded half to even at `digits` decimals, then read back as the nearest double — which is what
 * CPython does, and what `Math.round(x * 10 ** digits) / 10 ** digits` gets wrong on exact halves
 * (`round(0.03125, 4)` is 0.0312) and on products that do not multiply exactly.
 */
export function pyRound(value: number, digits: number): number {
  const scale = 10 ** digits;
  const scaled = value * scale;
  // Far from a tie the product's rounding error cannot change the result, and n / 10^k is the double
  // nearest the decimal n·10^-k; only near-ties need the exact decimal expansion.
  if (Number.isFinite(scaled) && Math.abs(scaled) < 2 ** 52) {
    const fraction = Math.abs(scaled - Math.trunc(scaled));
    if (Math.abs(fraction - 0.5) > 1e-6) return Math.round(scaled) / scale;
  }
  return Number(formatFixed(value, digits));
}

/**
 * Python's `repr()` of a finite float, as its JSON encoders print it: the shortest digits that read
 * back to the same double (JavaScript computes the same digits), with a decimal point on integral
 * values (`1.0`, `0.0`) and scientific notation outside 1e-4 ≤ |x| < 1e16 (`1e-05`, `1e+16`).
 */
export function pyFloatRepr(value: number): string {
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : value < 0 ? '-inf' : 'nan';
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const magnitude = Math.abs(value);
  if (magnitude >= 1e-4 && magnitude < 1e16) {
    const text = String(value); // fixed notation in this range, the same shortest digits as Python
    return text.includes('.') ? text : `${text}.0`;
  }
  const [mantissa, exponentText] = value.toExponential().split('e');
  const exponent = Number(exponentText);
  return `${mantissa}e${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
}

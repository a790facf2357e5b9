/**
 * Python's rounding, which the reference's numbers go through: `round(x)` rounds half to even, and
 * `f'{x:.Nf}'` rounds the exact binary value half to even. JavaScript's `Math.round` and `toFixed`
 * both round ties up, so `Retry-After` and the refill rates would differ on exact halves.
 */
export function roundHalfEven(value: number): number {
  const floor = Math.floor(value);
  const diff = value - floor;
  if (diff < 0.5) return floor;
  if (diff > 0.5) return floor + 1;
  return floor % 2 === 0 ? floor : floor + 1;
}

/** `f'{value:.{digits}f}'` for finite values below 1e21 (all the service prints). */
export function formatFixed(value: number, digits: number): string {
  const rounded = value.toFixed(digits);
  // toFixed(100) is the exact decimal expansion of the double for every value we print, so a tie is
  // visible as "5" followed by zeros past the kept digits; only then can toFixed's "round up" differ.
  const exact = value.toFixed(100);
  const point = exact.indexOf('.');
  const rest = exact.slice(point + 1 + digits);
  if (!/^50*$/.test(rest)) return rounded;
  const lastKept = exact.charAt(digits === 0 ? point - 1 : point + digits);
  if (Number(lastKept) % 2 === 1) return rounded; // odd: round up, as toFixed did
  return value < 0 ? `-${truncate(exact.slice(1), digits)}` : truncate(exact, digits);
}

function truncate(exact: string, digits: number): string {
  const point = exact.indexOf('.');
  return digits === 0 ? exact.slice(0, point) : exact.slice(0, point + 1 + digits);
}

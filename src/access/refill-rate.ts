import { formatFixed } from '../common/py-compat/py-round';

/**
 * A per-minute budget's refill, worded so a caller can pace against it (contract §13.3):
 * `2.0 tokens/s` at one token a second or more, else the period, `one token every 2s`.
 */
export function refillRate(perMinute: number): string {
  const perSecond = perMinute / 60;
  if (perSecond >= 1) return `${formatFixed(perSecond, 1)} tokens/s`;
  return `one token every ${formatFixed(60 / perMinute, 0)}s`;
}

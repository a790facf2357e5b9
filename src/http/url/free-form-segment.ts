import { RouteNotFoundError } from '../../common/errors/route-not-found.error';

/**
 * The reference matches a free-form last segment with `.*` (no newline) anchored by Python's `$`,
 * which also matches before one final newline (contract §1.1): a text whose only newline is its last
 * character routes (and loses it); any other newline means no route matched → 404 route map.
 */
export function freeFormSegment(decoded: string): string {
  const newline = decoded.indexOf('\n');
  if (newline < 0) return decoded;
  if (newline === decoded.length - 1) return decoded.slice(0, -1);
  throw new RouteNotFoundError();
}

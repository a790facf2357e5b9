import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Whether the `X-Stats-Token` header equals CHAT_STATS_TOKEN (contract §15.6), in constant time: both
 * sides are hashed first, so neither the comparison's duration nor an early length mismatch tells a
 * prober how much of a guess was right. An unset token never matches: /stats is then absent.
 */
export function statsTokenMatches(configured: string, presented: string | string[] | undefined): boolean {
  if (configured === '' || typeof presented !== 'string') return false;
  const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(configured), digest(presented));
}

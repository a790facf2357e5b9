import { createHash } from 'node:crypto';

/**
 * What "the same content" of a keyed write is compared by: a SHA-256 over the parts (NUL-separated,
 * so no two part lists collide), 96 bits in base64url. Kept in the key index instead of the content
 * itself, so a message's text or a note's value is not held twice in memory and in checkpoints.
 */
export function contentFingerprint(...parts: readonly string[]): string {
  return createHash('sha256').update(parts.join('\0'), 'utf8').digest('base64url').slice(0, 16);
}

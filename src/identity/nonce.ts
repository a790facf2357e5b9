import { BadNonceError } from './errors/bad-nonce.error';

/**
 * Signed-write nonces (contract §6.1, §8.1, §10.4): 1 to 19 ASCII digits, so any nonce fits a signed
 * 64-bit integer in the reference. Two forms live side by side and must not be mixed up:
 *  - as sent (`007`): what the signature covers and what the room-nonce note stores;
 *  - as an integer (7): what stale-nonce comparisons use and what message records store.
 * Values reach 10^19 − 1, past 2^53, so they are bigint or digit strings end to end, never number.
 */
const NONCE_PATTERN = /^[0-9]{1,19}$/;

/** The nonce exactly as sent, once it has the allowed shape; else BadNonceError quoting it. */
export function parseNonce(raw: string): string {
  if (typeof raw !== 'string' || !NONCE_PATTERN.test(raw)) throw new BadNonceError(String(raw));
  return raw;
}

/** The integer a nonce denotes (leading zeros carry no value). */
export function nonceValue(raw: string): bigint {
  return BigInt(parseNonce(raw));
}

/** The stored decimal digits: leading zeros dropped, "0" when every digit is zero. */
export function nonceDigits(raw: string): string {
  return nonceValue(raw).toString();
}

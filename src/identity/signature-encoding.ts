import { BadSignatureEncodingError } from './errors/bad-signature-encoding.error';

/**
 * Signatures travel as unpadded base64url: 64 bytes are 512 bits, 86 characters carry 516, and the
 * four spare bits of the last character must be zero (contract §8.6). Without that rule sixteen
 * strings would spell one signature; with it each signature has exactly one spelling, and the last
 * character is one of A, Q, g, w. Padded forms are refused.
 */
export const SIGNATURE_PATTERN = /^[A-Za-z0-9_-]{85}[AQgw]$/;

export const SIGNATURE_BYTES = 64;

/** The 64 signature bytes; throws BadSignatureEncodingError for any other spelling. */
export function decodeSignature(signature: string): Uint8Array {
  if (typeof signature !== 'string' || !SIGNATURE_PATTERN.test(signature)) {
    throw new BadSignatureEncodingError();
  }
  return new Uint8Array(Buffer.from(signature, 'base64url'));
}

/** The canonical spelling of 64 signature bytes (Buffer writes the spare bits as zero). */
export function encodeSignature(signature: Uint8Array): string {
  if (signature.length !== SIGNATURE_BYTES) throw new RangeError('an Ed25519 signature is 64 bytes');
  return Buffer.from(signature.buffer, signature.byteOffset, signature.byteLength).toString('base64url');
}

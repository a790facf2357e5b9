import { Point } from '@noble/ed25519';
import { sha512 } from '@noble/hashes/sha2.js';

/**
 * libsodium's crypto_sign_verify_detached written out with @noble/ed25519 point arithmetic and
 * @noble/hashes SHA-512: the slow, explicit definition the fast verifier (OpenSSL + byte prechecks)
 * is tested against. It shares no code with the fast path — small order is decided by multiplying
 * by the cofactor here and by an encoding table there — so an agreement between the two on crafted
 * vectors checks both.
 *
 * Not for the request path: more than ten times slower than verifyEd25519 (bench/verify.bench.ts).
 */
const { n: GROUP_ORDER, p: FIELD_PRIME } = Point.CURVE();

export function verifyEd25519Reference(
  publicKey: Uint8Array,
  message: Uint8Array,
  signature: Uint8Array,
): boolean {
  if (publicKey.length !== 32 || signature.length !== 64) return false;
  const encodedR = signature.subarray(0, 32);
  const s = littleEndian(signature.subarray(32, 64));
  if (s >= GROUP_ORDER) return false;
  if (decodesToSmallOrder(encodedR)) return false;
  if (yOf(publicKey) >= FIELD_PRIME || decodesToSmallOrder(publicKey)) return false;
  const a = decodeStrict(publicKey);
  if (a === null) return false;
  const k = littleEndian(sha512(concat(encodedR, publicKey, message))) % GROUP_ORDER;
  // Cofactorless: the encoding of [S]B − [k]A must be R's bytes exactly. A cofactored verifier
  // would instead test [8]([S]B − [k]A − R) = 0 and accept torsion components this refuses.
  const check = Point.BASE.multiply(s, false).subtract(a.multiply(k, false));
  return equalBytes(check.toBytes(), encodedR);
}

/**
 * Small order whatever the spelling: decoded leniently (y taken mod p, sign bit free, the ZIP-215
 * rules) and multiplied by the cofactor. Bytes that are not a curve point have no order to check.
 */
function decodesToSmallOrder(encoded: Uint8Array): boolean {
  const point = decode(encoded, true);
  return point !== null && point.isSmallOrder();
}

function decodeStrict(encoded: Uint8Array): Point | null {
  return decode(encoded, false);
}

function decode(encoded: Uint8Array, lenient: boolean): Point | null {
  try {
    return Point.fromBytes(encoded, lenient);
  } catch {
    return null;
  }
}

function yOf(encoded: Uint8Array): bigint {
  const masked = Uint8Array.from(encoded);
  masked[31] &= 0x7f;
  return littleEndian(masked);
}

function littleEndian(bytes: Uint8Array): bigint {
  let value = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) value = (value << 8n) | BigInt(bytes[i]);
  return value;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

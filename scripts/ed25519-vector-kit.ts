import { createHash, createPublicKey, verify } from 'node:crypto';
import { Point, verifyAsync } from '@noble/ed25519';

/**
 * Curve helpers for crafting Ed25519 acceptance vectors (scripts/gen-ed25519-vectors.ts): honest
 * signing with a chosen nonce and a chosen (possibly tampered) public-key encoding, small-order
 * points, and the verdicts of the verifiers we compare libsodium's rule with.
 */
export const GROUP_ORDER = Point.CURVE().n;
export const FIELD_PRIME = Point.CURVE().p;
const ORDER_8_Y = 0x7a03ac9277fdc74ec6cc392cfa53202a0f67100d760b3cba4fd84d3d706a17c7n;

export function littleEndian(bytes: Uint8Array): bigint {
  let value = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) value = (value << 8n) | BigInt(bytes[i]);
  return value;
}

export function le32(value: bigint): Uint8Array {
  const out = new Uint8Array(32);
  for (let i = 0, rest = value; i < 32; i++, rest >>= 8n) out[i] = Number(rest & 0xffn);
  return out;
}

export function withSignBit(encoding: Uint8Array): Uint8Array {
  const out = Uint8Array.from(encoding);
  out[31] |= 0x80;
  return out;
}

export function utf8(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text, 'utf8'));
}

export function concat(...parts: Uint8Array[]): Uint8Array {
  return new Uint8Array(Buffer.concat(parts));
}

export function sha512(...parts: Uint8Array[]): Uint8Array {
  const hash = createHash('sha512');
  for (const part of parts) hash.update(part);
  return new Uint8Array(hash.digest());
}

/** k = SHA-512(R‖A‖M) mod L, over the bytes exactly as they appear in the signature and key. */
export function challenge(encodedR: Uint8Array, encodedA: Uint8Array, message: Uint8Array): bigint {
  return littleEndian(sha512(encodedR, encodedA, message)) % GROUP_ORDER;
}

/** A scalar derived from a label, for nonces that must be reproducible. */
export function scalarFrom(label: string): bigint {
  return littleEndian(sha512(utf8(label))) % GROUP_ORDER;
}

/** A generator of the 8-torsion subgroup (an order-8 point). */
export const TORSION_8: Point = Point.fromBytes(le32(ORDER_8_Y));

/**
 * Every 32-byte spelling of a small-order point: the five y values of the eight points plus the
 * two aliases above p (p ≡ 0, p + 1 ≡ 1), each with the sign bit clear and set.
 */
export function smallOrderEncodings(): { label: string; bytes: Uint8Array }[] {
  const ys: [string, bigint][] = [
    ['identity (y=1)', 1n],
    ['order 2 (y=-1)', FIELD_PRIME - 1n],
    ['order 4 (y=0)', 0n],
    ['order 8 (y=y8)', ORDER_8_Y],
    ['order 8 (y=-y8)', FIELD_PRIME - ORDER_8_Y],
    ['non-canonical order 4 (y=p)', FIELD_PRIME],
    ['non-canonical identity (y=p+1)', FIELD_PRIME + 1n],
  ];
  return ys.flatMap(([label, y]) => [
    { label: `${label}, sign 0`, bytes: le32(y) },
    { label: `${label}, sign 1`, bytes: withSignBit(le32(y)) },
  ]);
}

/** Decodes the way OpenSSL does: y reduced mod p, sign bit honoured even when x = 0. */
export function decodeLenient(encoding: Uint8Array): Point {
  return Point.fromBytes(encoding, true);
}

/** An RFC 8032 key pair derived from a seed, with the secret scalar exposed for crafting. */
export interface HonestKey {
  readonly scalar: bigint;
  readonly point: Point;
  readonly publicKey: Uint8Array;
}

export function honestKey(seed: Uint8Array): HonestKey {
  const head = sha512(seed).slice(0, 32);
  head[0] &= 248;
  head[31] &= 127;
  head[31] |= 64;
  const scalar = littleEndian(head) % GROUP_ORDER;
  const point = Point.BASE.multiply(scalar, false);
  return { scalar, point, publicKey: point.toBytes() };
}

/**
 * S = r + k·a for a chosen R encoding, where `encodedA` is the key as the verifier will hash it
 * (possibly the honest key with a torsion point added). r is R's discrete log, 0 for small-order R.
 */
export function signWith(opts: {
  key: HonestKey;
  encodedA: Uint8Array;
  r: bigint;
  encodedR: Uint8Array;
  message: Uint8Array;
}): Uint8Array {
  const k = challenge(opts.encodedR, opts.encodedA, opts.message);
  const s = (opts.r + k * opts.key.scalar) % GROUP_ORDER;
  return concat(opts.encodedR, le32(s));
}

/** node:crypto (OpenSSL) alone, without the libsodium prechecks. */
export function opensslAlone(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  const x = Buffer.from(publicKey).toString('base64url');
  const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' });
  return verify(null, message, key, signature);
}

/** @noble/ed25519's own verify: cofactored, ZIP-215 decoding by default, stricter with zip215:false. */
export async function nobleVerdicts(
  publicKey: Uint8Array,
  message: Uint8Array,
  signature: Uint8Array,
): Promise<{ nobleZip215: boolean; nobleStrict: boolean }> {
  const safely = (zip215: boolean) =>
    verifyAsync(signature, message, publicKey, { zip215 }).catch(() => false);
  return { nobleZip215: await safely(true), nobleStrict: await safely(false) };
}

export function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex');
}

export function fromHex(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text, 'hex'));
}

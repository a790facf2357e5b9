/**
 * The byte-level checks libsodium's crypto_sign_verify_detached makes before any curve arithmetic
 * (contract §8.6). OpenSSL makes only the first one, so the fast verifier runs all of them itself;
 * see ed25519-verifier.ts for why exactly these make the two libraries agree.
 *
 * All inputs are little-endian 32-byte strings; nothing here allocates or uses bigint arithmetic
 * per call (constants are derived once at load).
 */
const FIELD_PRIME = 2n ** 255n - 19n;
const GROUP_ORDER = 2n ** 252n + 27742317777372353535851937790883648493n;
/** y of the order-8 points; the other four small-order y values are 0, 1, −1 and −y8. */
const ORDER_8_Y = 0x7a03ac9277fdc74ec6cc392cfa53202a0f67100d760b3cba4fd84d3d706a17c7n;

function littleEndian32(value: bigint): Uint8Array {
  const bytes = new Uint8Array(32);
  for (let i = 0, rest = value; i < 32; i++, rest >>= 8n) bytes[i] = Number(rest & 0xffn);
  return bytes;
}

const ORDER_BYTES = littleEndian32(GROUP_ORDER);

/**
 * Every y (sign bit masked off, not reduced) whose point has small order: the five canonical values
 * and the two that alias 0 and 1 from above p. y + p does not fit in 255 bits for the others, so
 * this is every such spelling, and the sign bit is ignored because it only picks ±x.
 */
const SMALL_ORDER_Y = [
  0n,
  1n,
  ORDER_8_Y,
  FIELD_PRIME - ORDER_8_Y,
  FIELD_PRIME - 1n,
  FIELD_PRIME,
  FIELD_PRIME + 1n,
].map(littleEndian32);

/** S < L, read little-endian (libsodium sc25519_is_canonical). Refuses the S + L malleation. */
export function isCanonicalScalar(scalar: Uint8Array): boolean {
  for (let i = 31; i >= 0; i--) {
    if (scalar[i] !== ORDER_BYTES[i]) return scalar[i] < ORDER_BYTES[i];
  }
  return false;
}

/** y < p with the sign bit masked off (libsodium ge25519_is_canonical). */
export function isCanonicalPointEncoding(point: Uint8Array): boolean {
  if ((point[31] & 0x7f) !== 0x7f) return true;
  for (let i = 30; i > 0; i--) if (point[i] !== 0xff) return true;
  return point[0] < 0xed;
}

/** The encoding names a point of order 1, 2, 4 or 8, in any spelling (ge25519_has_small_order). */
export function hasSmallOrderEncoding(point: Uint8Array): boolean {
  return SMALL_ORDER_Y.some((y) => sameY(point, y));
}

function sameY(point: Uint8Array, y: Uint8Array): boolean {
  for (let i = 0; i < 31; i++) if (point[i] !== y[i]) return false;
  return (point[31] & 0x7f) === y[31];
}

/**
 * libsodium's refusals that need no curve arithmetic, for a 32-byte key and a 64-byte signature
 * R‖S: S ≥ L, R of small order, A non-canonical, A of small order.
 */
export function passesSodiumPrechecks(publicKey: Uint8Array, signature: Uint8Array): boolean {
  return (
    isCanonicalScalar(signature.subarray(32, 64)) &&
    !hasSmallOrderEncoding(signature.subarray(0, 32)) &&
    isCanonicalPointEncoding(publicKey) &&
    !hasSmallOrderEncoding(publicKey)
  );
}

import { createPublicKey, KeyObject, verify } from 'node:crypto';
import { BoundedLru } from './bounded-lru';
import { passesSodiumPrechecks } from './ed25519-prechecks';

/**
 * Ed25519 verification with exactly libsodium's verdicts (crypto_sign_verify_detached, which the
 * reference reaches through PyNaCl; contract §8.6), at OpenSSL's speed.
 *
 * libsodium refuses when S ≥ L, when R has small order, when A is non-canonical (y ≥ p) or has small
 * order, when A is not on the curve, and otherwise accepts iff encode([S]B − [k]A) equals R byte for
 * byte, k = SHA-512(R‖A‖M) mod L (cofactorless). OpenSSL's ED25519_verify (node:crypto) refuses
 * S ≥ L and off-curve A and then runs the same cofactorless comparison over the same hash input;
 * it does not look at the order or canonicity of A or R, and node imports such keys without
 * complaint. So:
 *  - small-order A must be refused here: with A = identity, R = B, S = 1 OpenSSL accepts any message;
 *  - small-order R must be refused here: the key holder can sign with R = identity, S = k·a, which
 *    OpenSSL accepts;
 *  - non-canonical A must be refused here: OpenSSL reduces y mod p (the identity spelt p + 1 verifies),
 *    and for the other spellings only the unknown discrete log stands between it and an acceptance;
 *  - non-canonical R needs nothing: the computed encoding is always canonical, so it never matches;
 *  - S ≥ L is refused by both, and checked here too so the verdict does not lean on it.
 * After these checks the two libraries compute the same predicate. test/unit/identity pins this on
 * crafted vectors against verifyEd25519Reference, which does the arithmetic explicitly; the vectors
 * also record what OpenSSL alone decides (Node 20.20, OpenSSL 3.0.19), so a Node upgrade that moved
 * OpenSSL's boundary — say, to a cofactored check — fails there rather than in production.
 */
const KEY_CACHE_CAPACITY = 1024;

/** Imported keys by base64url public key; null marks bytes OpenSSL would not import. */
const keyCache = new BoundedLru<string, KeyObject | null>(KEY_CACHE_CAPACITY);

/** True iff libsodium would accept `signature` (R‖S, 64 bytes) by `publicKey` (32 bytes) over `message`. */
export function verifyEd25519(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  if (publicKey.length !== 32 || signature.length !== 64) return false;
  if (!passesSodiumPrechecks(publicKey, signature)) return false;
  const key = verificationKey(publicKey);
  return key !== null && verify(null, message, key, signature);
}

/**
 * Importing through JWK costs about a fifteenth of an SPKI import, and signers reuse their keys, so
 * imports are cached per key.
 */
function verificationKey(publicKey: Uint8Array): KeyObject | null {
  const x = Buffer.from(publicKey.buffer, publicKey.byteOffset, publicKey.byteLength).toString('base64url');
  const cached = keyCache.get(x);
  if (cached !== undefined) return cached;
  const key = importKey(x);
  keyCache.set(x, key);
  return key;
}

function importKey(x: string): KeyObject | null {
  try {
    return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' });
  } catch {
    // Node 20 / OpenSSL 3.0 import any 32 bytes, even off the curve (verify then refuses them).
    // Should a later version validate on import, the refused bytes are off-curve keys libsodium
    // refuses as well.
    return null;
  }
}

import { createPrivateKey, createPublicKey, KeyObject, randomBytes, sign } from 'node:crypto';
import { didKeyFromPublicKey } from './did-key';
import { BadSigningSeedError } from './errors/bad-signing-seed.error';
import { encodeSignature } from './signature-encoding';

/**
 * The client side of the signed lane, for tools, tests and benchmarks, and the service's own key
 * (service-key.ts: it signs room heads, never a message). A key is its 32-byte RFC 8032 seed;
 * node:crypto derives the public key and signs.
 */
export interface SigningKey {
  /** The seed as 64 lowercase hex characters: everything needed to recreate the key. */
  readonly seedHex: string;
  readonly publicKey: Uint8Array;
  readonly did: string;
  /** Signs the UTF-8 bytes of `payload`; returns the canonical 86-character base64url signature. */
  sign(payload: string): string;
}

const SEED_BYTES = 32;
const HEX_SEED = /^[0-9a-fA-F]{64}$/;
const BASE64URL_SEED = /^[A-Za-z0-9_-]{43}$/;
/** DER of PKCS#8 PrivateKeyInfo { v1, id-Ed25519 (1.3.101.112), OCTET STRING { OCTET STRING seed } }. */
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export function generateSigningKey(): SigningKey {
  return keyFromSeedBytes(randomBytes(SEED_BYTES));
}

/** From 64 hex characters, 43 base64url characters, or the 32 seed bytes themselves. */
export function signingKeyFromSeed(seed: string | Uint8Array): SigningKey {
  return keyFromSeedBytes(typeof seed === 'string' ? parseSeed(seed) : Buffer.from(seed));
}

function parseSeed(text: string): Buffer {
  if (HEX_SEED.test(text)) return Buffer.from(text, 'hex');
  // Only the canonical spelling: 43 characters carry 258 bits and the two spare ones must be zero.
  const bytes = BASE64URL_SEED.test(text) ? Buffer.from(text, 'base64url') : null;
  if (bytes === null || bytes.toString('base64url') !== text) throw new BadSigningSeedError();
  return bytes;
}

function keyFromSeedBytes(seed: Buffer): SigningKey {
  if (seed.length !== SEED_BYTES) throw new BadSigningSeedError();
  const privateKey = createPrivateKey({
    key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  });
  const publicKey = publicKeyBytes(privateKey);
  return {
    seedHex: seed.toString('hex'),
    publicKey,
    did: didKeyFromPublicKey(publicKey),
    sign: (payload) => encodeSignature(sign(null, Buffer.from(payload, 'utf8'), privateKey)),
  };
}

function publicKeyBytes(privateKey: KeyObject): Uint8Array {
  const { x } = createPublicKey(privateKey).export({ format: 'jwk' });
  return new Uint8Array(Buffer.from(x!, 'base64url'));
}

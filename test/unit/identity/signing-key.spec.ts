import { parseDidKey } from '../../../src/identity/did-key';
import { verifyEd25519 } from '../../../src/identity/ed25519-verifier';
import { BadSigningSeedError } from '../../../src/identity/errors/bad-signing-seed.error';
import { decodeSignature } from '../../../src/identity/signature-encoding';
import { generateSigningKey, signingKeyFromSeed } from '../../../src/identity/signing-key';

/** RFC 8032 section 7.1, TEST 1 (empty message). */
const RFC_SEED = '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60';
const RFC_PUBLIC = 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a';
const RFC_SIGNATURE =
  'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b';

describe('signing keys', () => {
  it('derive the RFC 8032 public key and signature from the RFC seed', () => {
    const key = signingKeyFromSeed(RFC_SEED);
    expect(Buffer.from(key.publicKey).toString('hex')).toBe(RFC_PUBLIC);
    expect(Buffer.from(parseDidKey(key.did)).toString('hex')).toBe(RFC_PUBLIC);
    expect(Buffer.from(decodeSignature(key.sign(''))).toString('hex')).toBe(RFC_SIGNATURE);
  });

  it('accept the seed as hex in either case, as base64url, or as bytes', () => {
    const bytes = Buffer.from(RFC_SEED, 'hex');
    const dids = [RFC_SEED, RFC_SEED.toUpperCase(), bytes.toString('base64url'), new Uint8Array(bytes)].map(
      (seed) => signingKeyFromSeed(seed).did,
    );
    expect(new Set(dids).size).toBe(1);
    expect(signingKeyFromSeed(RFC_SEED.toUpperCase()).seedHex).toBe(RFC_SEED);
  });

  it.each([
    ['short hex', RFC_SEED.slice(2)],
    ['non-canonical base64url', Buffer.from(RFC_SEED, 'hex').toString('base64url').slice(0, 42) + 'B'],
    ['garbage', 'not a seed'],
  ])('refuse a %s seed', (_label, seed) => {
    expect(() => signingKeyFromSeed(seed)).toThrow(BadSigningSeedError);
  });

  it('produce canonical signatures over UTF-8 that the verifier accepts', () => {
    const key = generateSigningKey();
    const payload = 'd-lab|1|héllo ✓';
    const signature = key.sign(payload);
    expect(signature).toMatch(/^[A-Za-z0-9_-]{85}[AQgw]$/);
    const message = new Uint8Array(Buffer.from(payload, 'utf8'));
    expect(verifyEd25519(parseDidKey(key.did), message, decodeSignature(signature))).toBe(true);
    expect(generateSigningKey().did).not.toBe(key.did);
  });
});

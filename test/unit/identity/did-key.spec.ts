import { encodeBase58btc } from '../../../src/identity/base58btc';
import {
  abbreviateDid,
  DID_KEY_PATTERN,
  didKeyFromPublicKey,
  isDidKey,
  parseDidKey,
} from '../../../src/identity/did-key';
import { BadDidKeyError } from '../../../src/identity/errors/bad-did-key.error';

/** The did:key method specification's own Ed25519 example. */
const SPEC_DID = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
const RFC8032_TEST1_KEY = 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a';

const fromHex = (text: string) => new Uint8Array(Buffer.from(text, 'hex'));

describe('parseDidKey', () => {
  it('returns the 32 public-key bytes and didKeyFromPublicKey spells them back', () => {
    const publicKey = parseDidKey(SPEC_DID);
    expect(publicKey).toHaveLength(32);
    expect(didKeyFromPublicKey(publicKey)).toBe(SPEC_DID);
  });

  it('answers a repeated key from its memo with a fresh copy, and keeps refusing a bad one', () => {
    const first = parseDidKey(SPEC_DID);
    first.fill(0); // a caller scribbling on its copy must not reach the next caller
    expect(didKeyFromPublicKey(parseDidKey(SPEC_DID))).toBe(SPEC_DID);
    const bad = `${SPEC_DID.slice(0, -1)}0`; // '0' is not a base58 digit
    expect(() => parseDidKey(bad)).toThrow(/bad did:key/);
    expect(() => parseDidKey(bad)).toThrow(/bad did:key/);
  });

  it('round-trips a known key', () => {
    const did = didKeyFromPublicKey(fromHex(RFC8032_TEST1_KEY));
    expect(did).toMatch(DID_KEY_PATTERN);
    expect(Buffer.from(parseDidKey(did)).toString('hex')).toBe(RFC8032_TEST1_KEY);
  });

  it('keeps keys whose first bytes are zero (they still spell z6Mk…)', () => {
    const publicKey = new Uint8Array(32);
    publicKey[31] = 1;
    expect(parseDidKey(didKeyFromPublicKey(publicKey))).toEqual(publicKey);
  });

  it.each([
    ['not a did at all', 'bad did:key: expected did:key:z6Mk...'],
    ['DID:KEY:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK', 'bad did:key: expected did:key:z6Mk...'],
    ['did:web:example.com', 'bad did:key: expected did:key:z6Mk...'],
    ['did:key:', "bad did:key: expected 48 multibase characters starting 'z', got 0"],
    ['did:key:z6Mk', "bad did:key: expected 48 multibase characters starting 'z', got 4"],
    [SPEC_DID + 'x', "bad did:key: expected 48 multibase characters starting 'z', got 49"],
    ['did:key:u' + 'a'.repeat(47), "bad did:key: expected 48 multibase characters starting 'z', got 48"],
    [
      'did:key:z' + 'a'.repeat(47) + '😀',
      "bad did:key: expected 48 multibase characters starting 'z', got 49",
    ],
    ['did:key:z6Mk' + '0'.repeat(44), "bad did:key: '0' is not base58btc"],
    ['did:key:z6Mk' + 'a'.repeat(42) + "'l", 'bad did:key: "\'" is not base58btc'],
    ['did:key:z' + 'a'.repeat(46) + '😀', "bad did:key: '😀' is not base58btc"],
    ['did:key:z' + '1'.repeat(47), 'bad did:key: only ed25519-pub (z6Mk...) keys are accepted'],
    ['did:key:z6Mk' + '1'.repeat(44), 'bad did:key: only ed25519-pub (z6Mk...) keys are accepted'],
    [
      'did:key:z6LSbgBAXJos6Tik6PNmXeWxKbDUr9Y7hcB9syigVTeXiNmm',
      'bad did:key: only ed25519-pub (z6Mk...) keys are accepted',
    ],
  ])('refuses %j with the reference body', (did, message) => {
    expect(() => parseDidKey(did)).toThrow(new BadDidKeyError(message));
  });

  it('raises a bad_request domain error', () => {
    expect(() => parseDidKey('nope')).toThrow(expect.objectContaining({ code: 'bad_request' }));
  });
});

describe('isDidKey', () => {
  it('accepts exactly what parseDidKey accepts', () => {
    expect(isDidKey(SPEC_DID)).toBe(true);
    expect(isDidKey(SPEC_DID)).toBe(true); // second answer comes from the memo
    expect(isDidKey('alice')).toBe(false);
    expect(isDidKey('')).toBe(false);
    expect(isDidKey(SPEC_DID + '\n')).toBe(false);
    expect(isDidKey('did:key:z6Mk' + '1'.repeat(44))).toBe(false);
    expect(isDidKey('did:key:z6Mk' + '1'.repeat(44))).toBe(false);
  });

  it('refuses values that are not strings', () => {
    expect(isDidKey(42 as unknown as string)).toBe(false);
    expect(isDidKey(undefined as unknown as string)).toBe(false);
  });

  it('uses a pattern that admits every Ed25519 key: the smallest and largest ED01 values spell z6Mk…', () => {
    // Base58 strings of equal length sort like their numbers, so every value in between shares
    // the prefix the two ends share.
    for (const fill of [0x00, 0xff]) {
      const multicodec = new Uint8Array(34).fill(fill);
      multicodec.set([0xed, 0x01]);
      expect(`did:key:z${encodeBase58btc(multicodec)}`).toMatch(DID_KEY_PATTERN);
    }
  });
});

describe('abbreviateDid', () => {
  it('keeps the first and last four multibase characters around an ellipsis', () => {
    expect(abbreviateDid(SPEC_DID)).toBe('z6Mk…2doK');
  });
});

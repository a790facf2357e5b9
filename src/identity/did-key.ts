import { codePointLength } from '../common/sweep';
import { decodeBase58btc, encodeBase58btc } from './base58btc';
import { BoundedLru } from './bounded-lru';
import { BadDidKeyError } from './errors/bad-did-key.error';
import { InvalidBase58Error } from './errors/invalid-base58.error';

/**
 * did:key for Ed25519 (contract §8.6): `did:key:` + `z` (multibase base58btc) + 47 base58 characters
 * that decode to the multicodec varint 0xED 0x01 (ed25519-pub) followed by the 32-byte public key.
 * The checks run in the reference's order so the first failure names the same problem.
 */
const PREFIX = 'did:key:';
const MULTIBASE_CHARS = 48;
const DECODED_BYTES = 34;
const ED25519_PUB = [0xed, 0x01] as const;

/**
 * Every 34-byte value starting ED 01 spells `z6Mk` + 44 characters (a unit test pins this), so the
 * pattern never refuses a key parseDidKey accepts; it can still admit values that decode to another
 * codec or length, which is why isDidKey also decodes.
 */
export const DID_KEY_PATTERN = /^did:key:z6Mk[1-9A-HJ-NP-Za-km-z]{44}$/;

/**
 * Signers reuse their keys on every signed write, and the base58 decode is bigint arithmetic (a few
 * µs), so accepted keys are memoised (refusals are not: they must keep throwing the same error). Bounded like the memo below, so a client minting keys costs evictions only.
 */
const PARSED_KEY_MEMO_CAPACITY = 1024;
const parsedKeyMemo = new BoundedLru<string, Uint8Array>(PARSED_KEY_MEMO_CAPACITY);

/** The 32-byte Ed25519 public key of a did:key; throws BadDidKeyError with the reference's text. */
export function parseDidKey(did: string): Uint8Array {
  const known = typeof did === 'string' ? parsedKeyMemo.get(did) : undefined;
  if (known !== undefined) return known.slice(); // a copy: callers own what they get
  const publicKey = decodeDidKey(did);
  parsedKeyMemo.set(did, publicKey.slice());
  return publicKey;
}

function decodeDidKey(did: string): Uint8Array {
  if (typeof did !== 'string' || !did.startsWith(PREFIX)) {
    throw new BadDidKeyError(`bad did:key: expected ${PREFIX}z6Mk...`);
  }
  const multibase = did.slice(PREFIX.length);
  // The reference counts code points (Python len), so an emoji counts once in "got <n>".
  const length = codePointLength(multibase);
  if (length !== MULTIBASE_CHARS || !multibase.startsWith('z')) {
    throw new BadDidKeyError(
      `bad did:key: expected ${MULTIBASE_CHARS} multibase characters starting 'z', got ${length}`,
    );
  }
  const decoded = decodeMultibaseBody(multibase.slice(1));
  if (decoded.length !== DECODED_BYTES || decoded[0] !== ED25519_PUB[0] || decoded[1] !== ED25519_PUB[1]) {
    throw new BadDidKeyError('bad did:key: only ed25519-pub (z6Mk...) keys are accepted');
  }
  return decoded.slice(ED25519_PUB.length);
}

function decodeMultibaseBody(body: string): Uint8Array {
  try {
    return decodeBase58btc(body);
  } catch (error) {
    if (error instanceof InvalidBase58Error) throw new BadDidKeyError(`bad did:key: ${error.message}`);
    throw error;
  }
}

/**
 * Message lines, owner notes and allow-lists ask this for every `from`/token they render or check,
 * and the same few keys recur, so decoded answers are memoised. Only strings that already match the
 * pattern reach the memo (nicknames never do: the name grammar has no ':'), which keeps it to real
 * candidates; its bound keeps a client minting keys from growing it.
 */
const IS_DID_KEY_MEMO_CAPACITY = 4096;
const isDidKeyMemo = new BoundedLru<string, boolean>(IS_DID_KEY_MEMO_CAPACITY);

/** True exactly when parseDidKey would accept `value`. */
export function isDidKey(value: string): boolean {
  if (typeof value !== 'string' || !DID_KEY_PATTERN.test(value)) return false;
  const known = isDidKeyMemo.get(value);
  if (known !== undefined) return known;
  const verdict = decodesToEd25519Key(value);
  isDidKeyMemo.set(value, verdict);
  return verdict;
}

function decodesToEd25519Key(did: string): boolean {
  try {
    parseDidKey(did);
    return true;
  } catch (error) {
    if (error instanceof BadDidKeyError) return false;
    throw error;
  }
}

export function didKeyFromPublicKey(publicKey: Uint8Array): string {
  if (publicKey.length !== 32) throw new RangeError('an Ed25519 public key is 32 bytes');
  const multicodec = new Uint8Array(DECODED_BYTES);
  multicodec.set(ED25519_PUB, 0);
  multicodec.set(publicKey, ED25519_PUB.length);
  return `${PREFIX}z${encodeBase58btc(multicodec)}`;
}

/**
 * `z6Mk…abcd`: the first and last four characters of the multibase part around U+2026 (contract
 * §7.4). A full key is ~1200 tokens per 50-line read; the JSON view keeps it whole.
 */
export function abbreviateDid(did: string): string {
  const multibase = Array.from(did).slice(PREFIX.length);
  return `${multibase.slice(0, 4).join('')}…${multibase.slice(-4).join('')}`;
}

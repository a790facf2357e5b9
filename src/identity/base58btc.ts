import { InvalidBase58Error } from './errors/invalid-base58.error';

/**
 * base58btc (the Bitcoin alphabet), the multibase `z` encoding of did:key. A number in base 58,
 * big-endian, except that each leading '1' stands for one leading zero byte: the number alone
 * cannot carry them, and without them one key in 256 would decode short.
 */
export const BASE58BTC_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

const DIGIT_OF: ReadonlyMap<string, bigint> = new Map(
  Array.from(BASE58BTC_ALPHABET, (ch, i) => [ch, BigInt(i)] as const),
);

/** Decodes base58btc; throws InvalidBase58Error naming the first code point outside the alphabet. */
export function decodeBase58btc(text: string): Uint8Array {
  let value = 0n;
  // for…of walks code points, so an astral character is reported whole, as Python reports it.
  for (const ch of text) {
    const digit = DIGIT_OF.get(ch);
    if (digit === undefined) throw new InvalidBase58Error(ch);
    value = value * 58n + digit;
  }
  const body = bigEndianBytes(value);
  const out = new Uint8Array(leadingCount(text, '1') + body.length);
  out.set(body, out.length - body.length);
  return out;
}

export function encodeBase58btc(bytes: Uint8Array): string {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  let digits = '';
  while (value > 0n) {
    digits = BASE58BTC_ALPHABET[Number(value % 58n)] + digits;
    value /= 58n;
  }
  return '1'.repeat(zeros) + digits;
}

/** Minimal big-endian bytes of a non-negative integer; zero has none. */
function bigEndianBytes(value: bigint): Uint8Array {
  const bytes: number[] = [];
  for (let rest = value; rest > 0n; rest >>= 8n) bytes.push(Number(rest & 0xffn));
  return Uint8Array.from(bytes.reverse());
}

function leadingCount(text: string, ch: string): number {
  let count = 0;
  while (count < text.length && text[count] === ch) count++;
  return count;
}

import { randomBytes } from 'node:crypto';
import { BadSignatureEncodingError } from '../../../src/identity/errors/bad-signature-encoding.error';
import { decodeSignature, encodeSignature } from '../../../src/identity/signature-encoding';

describe('signature encoding', () => {
  it('round-trips 64 bytes through the canonical 86-character spelling', () => {
    for (let i = 0; i < 50; i++) {
      const raw = new Uint8Array(randomBytes(64));
      const text = encodeSignature(raw);
      expect(text).toMatch(/^[A-Za-z0-9_-]{85}[AQgw]$/);
      expect(decodeSignature(text)).toEqual(raw);
    }
  });

  it('refuses the fifteen other spellings of the same bytes (non-zero spare bits)', () => {
    const canonical = encodeSignature(new Uint8Array(64).fill(7));
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const lastValue = alphabet.indexOf(canonical[85]);
    const spellings = Array.from(
      { length: 16 },
      (_, spare) => canonical.slice(0, 85) + alphabet[lastValue + spare],
    );
    expect(
      spellings.map((s) => Buffer.from(s, 'base64url').equals(Buffer.from(canonical, 'base64url'))),
    ).toEqual(Array(16).fill(true));
    expect(spellings.filter((s) => safeDecode(s) !== null)).toEqual([canonical]);
  });

  it.each([
    ['padded', encodeSignature(new Uint8Array(64)) + '=='],
    ['standard base64 alphabet', '+'.repeat(85) + 'A'],
    ['85 characters', 'A'.repeat(85)],
    ['87 characters', 'A'.repeat(87)],
    ['trailing newline', 'A'.repeat(86) + '\n'],
    ['empty', ''],
  ])('refuses %s', (_label, text) => {
    expect(() => decodeSignature(text)).toThrow(BadSignatureEncodingError);
  });

  it('carries the reference body', () => {
    expect(() => decodeSignature('x')).toThrow('bad signature encoding: 86 base64url characters ending AQgw');
  });
});

function safeDecode(text: string): Uint8Array | null {
  try {
    return decodeSignature(text);
  } catch {
    return null;
  }
}

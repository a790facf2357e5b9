import { randomBytes } from 'node:crypto';
import { decodeBase58btc, encodeBase58btc } from '../../../src/identity/base58btc';
import { InvalidBase58Error } from '../../../src/identity/errors/invalid-base58.error';

const bytes = (...values: number[]) => Uint8Array.from(values);

describe('base58btc', () => {
  it.each([
    [new Uint8Array(0), ''],
    [bytes(0), '1'],
    [bytes(0, 0, 1), '112'],
    [bytes(57), 'z'],
    [bytes(58), '21'],
    [new Uint8Array(Buffer.from('Hello World!')), '2NEpo7TZRRrLZSi2U'],
  ])('encodes %j as %j and back', (raw, text) => {
    expect(encodeBase58btc(raw)).toBe(text);
    expect(decodeBase58btc(text)).toEqual(raw);
  });

  it('spells each leading zero byte as a leading 1, even when everything is zero', () => {
    expect(decodeBase58btc('111')).toEqual(bytes(0, 0, 0));
    expect(encodeBase58btc(bytes(0, 0, 0))).toBe('111');
  });

  it('round-trips random byte strings, leading zeros included', () => {
    for (let i = 0; i < 200; i++) {
      const raw = new Uint8Array(randomBytes(1 + (i % 40)));
      if (i % 3 === 0) raw.fill(0, 0, 1 + (i % 4));
      expect(decodeBase58btc(encodeBase58btc(raw))).toEqual(raw);
    }
  });

  it.each(['0', 'O', 'I', 'l', '+', ' '])('refuses %j, which is outside the alphabet', (ch) => {
    expect(() => decodeBase58btc(`abc${ch}def`)).toThrow(new InvalidBase58Error(ch));
  });

  it('names the first bad character, whole even when it is astral', () => {
    const error = captureError(() => decodeBase58btc('ab😀0'));
    expect(error).toBeInstanceOf(InvalidBase58Error);
    expect((error as InvalidBase58Error).character).toBe('😀');
    expect((error as InvalidBase58Error).message).toBe("'😀' is not base58btc");
  });
});

function captureError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

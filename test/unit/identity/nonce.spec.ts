import { BadNonceError } from '../../../src/identity/errors/bad-nonce.error';
import { nonceDigits, nonceValue, parseNonce } from '../../../src/identity/nonce';

describe('nonce rules', () => {
  it('keeps the nonce as sent, leading zeros included (the signature covers that form)', () => {
    expect(parseNonce('007')).toBe('007');
    expect(parseNonce('0')).toBe('0');
  });

  it('stores the integer digits: leading zeros dropped, "0" for all zeros', () => {
    expect(nonceDigits('007')).toBe('7');
    expect(nonceDigits('0000')).toBe('0');
    expect(nonceDigits('1712000000000')).toBe('1712000000000');
  });

  it('keeps 19-digit values exact, past 2^53 (never through Number)', () => {
    expect(nonceValue('9999999999999999999')).toBe(9999999999999999999n);
    expect(nonceDigits('9007199254740993')).toBe('9007199254740993');
    expect(nonceValue('9007199254740993') > nonceValue('9007199254740992')).toBe(true);
  });

  it.each([
    ['', "nonce must be 1-19 digits, got ''"],
    ['12345678901234567890', "nonce must be 1-19 digits, got '12345678901234567890'"],
    ['-1', "nonce must be 1-19 digits, got '-1'"],
    ['+1', "nonce must be 1-19 digits, got '+1'"],
    [' 1', "nonce must be 1-19 digits, got ' 1'"],
    ['1\n', "nonce must be 1-19 digits, got '1\\n'"],
    ['1_000', "nonce must be 1-19 digits, got '1_000'"],
    ['１２', "nonce must be 1-19 digits, got '１２'"],
    ["1'", `nonce must be 1-19 digits, got "1'"`],
  ])('refuses %j with the reference body', (raw, message) => {
    expect(() => parseNonce(raw)).toThrow(new BadNonceError(raw));
    expect(() => parseNonce(raw)).toThrow(message);
    expect(() => nonceValue(raw)).toThrow(BadNonceError);
  });
});

import { headerBlockRefusal } from '../../../src/http/header-limits';

const LIMITS = { maxHeaders: 48, maxHeaderBytes: 8192 };

function headers(count: number, valueLength = 1): string[] {
  return Array.from({ length: count }, (_, i) => [`x-h${i}`, 'v'.repeat(valueLength)]).flat();
}

describe('header limits', () => {
  it('allows up to 48 headers and 8192 bytes counted as name + value + 4', () => {
    expect(headerBlockRefusal(headers(48), LIMITS)).toBeNull();
    expect(headerBlockRefusal(['x', 'v'.repeat(8192 - 5)], LIMITS)).toBeNull();
    expect(headerBlockRefusal(['x', 'v'.repeat(8192 - 4)], LIMITS)).toBe(
      '431 header block too large: received 1 headers totalling 8193 bytes, and the maxima are 48 headers ' +
        'and 8192 bytes. Nothing in this protocol needs a header: send the request with Host alone (and ' +
        'Content-Type for a POST) and it will be served.',
    );
    expect(headerBlockRefusal(headers(49), LIMITS)).toMatch(
      /^431 header block too large: received 49 headers /,
    );
  });
});

import { negotiateCoding } from '../../../src/http/compression/accept-encoding';

describe('negotiateCoding (Accept-Encoding, RFC 9110 §12.5.3)', () => {
  it.each([
    [undefined, null],
    ['', null],
    ['identity', null],
    ['gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['br', 'br'],
    ['BR', 'br'],
    ['gzip, deflate', 'gzip'],
    ['gzip, deflate, br', 'br'], // equally acceptable: br, the smaller
    ['gzip, deflate, br, zstd', 'br'],
    ['deflate', null],
    ['zstd', null],
    ['*', 'br'],
    ['*;q=0', null],
    ['gzip;q=0, *', 'br'],
    ['br;q=0, *', 'gzip'],
    ['br;q=0, gzip;q=0', null],
    ['gzip;q=1.0, br;q=0.5', 'gzip'],
    ['br;q=0.2, gzip;q=0.8', 'gzip'],
    ['br;q=0.8, gzip;q=0.8', 'br'],
    ['gzip ; q=0.5 , identity', null], // the client weights plain higher
    ['gzip;q=0.5, identity;q=0.5', 'gzip'],
    ['identity;q=0, gzip', 'gzip'],
    ['br;q=nonsense, gzip;q=0.1', 'gzip'], // an unreadable weight refuses that coding
    ['br;q=', null],
    ['br;level=1', 'br'], // other parameters do not matter
    [' , ,gzip', 'gzip'],
  ])('%j → %j', (header, expected) => {
    expect(negotiateCoding(header)).toBe(expected);
    expect(negotiateCoding(header)).toBe(expected); // the memoised answer is the same
  });

  it('joins repeated headers before reading them', () => {
    expect(negotiateCoding(['gzip;q=0.5', 'br;q=0.9'])).toBe('br');
  });
});

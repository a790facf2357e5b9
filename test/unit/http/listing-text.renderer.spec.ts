import { humanAgo, humanSize, nextAgoChangeSeconds } from '../../../src/listing/http/listing-text.renderer';

describe('listing text units', () => {
  it('prints sizes with one decimal from 1 KiB up, bytes below', () => {
    expect(humanSize(0)).toBe('0B');
    expect(humanSize(1023)).toBe('1023B');
    expect(humanSize(1024)).toBe('1.0K');
    expect(humanSize(1280)).toBe('1.2K'); // 1.25: the binary value ties, and ties go to even
    expect(humanSize(1.2 * 1024 * 1024)).toBe('1.2M');
    expect(humanSize(5 * 1024 ** 3)).toBe('5.0G');
  });

  it('prints ages in the largest whole unit and knows when the text changes', () => {
    expect([
      humanAgo(0),
      humanAgo(59),
      humanAgo(60),
      humanAgo(3599),
      humanAgo(3600),
      humanAgo(3 * 86400 + 5),
    ]).toEqual(['0s', '59s', '1m', '59m', '1h', '3d']);
    expect([nextAgoChangeSeconds(5), nextAgoChangeSeconds(61), nextAgoChangeSeconds(7300)]).toEqual([
      6, 120, 10800,
    ]);
  });
});

import fc from 'fast-check';
import { formatTimestamp, parseTimestampMs } from '../../../src/common/timestamp';

/** The plain definition: ISO date and time to the second, then six fractional digits, UTC. */
function reference(micros: number): string {
  const iso = new Date(Math.floor(micros / 1000)).toISOString();
  const fraction = String(micros - Math.floor(micros / 1_000_000) * 1_000_000).padStart(6, '0');
  return `${iso.slice(0, 19)}.${fraction}Z`;
}

describe('formatTimestamp', () => {
  it('writes six fractional digits in UTC', () => {
    expect(formatTimestamp(Date.UTC(2026, 8, 24, 10, 11, 12) * 1000 + 123_456)).toBe(
      '2026-09-24T10:11:12.123456Z',
    );
    expect(formatTimestamp(Date.UTC(2026, 0, 1) * 1000)).toBe('2026-01-01T00:00:00.000000Z');
  });

  it('matches the plain definition for any time, in any order (the per-second cache never leaks)', () => {
    const micros = fc.integer({ min: 0, max: Date.UTC(2100, 0, 1) * 1000 });
    fc.assert(
      fc.property(fc.array(micros, { minLength: 1, maxLength: 20 }), (times) => {
        for (const t of times) expect(formatTimestamp(t)).toBe(reference(t));
      }),
    );
  });

  it('crosses second, day and year boundaries correctly one microsecond apart', () => {
    const edge = Date.UTC(2026, 11, 31, 23, 59, 59) * 1000 + 999_999;
    expect([edge, edge + 1, edge, edge + 1_000_000].map(formatTimestamp)).toEqual([
      '2026-12-31T23:59:59.999999Z',
      '2027-01-01T00:00:00.000000Z',
      '2026-12-31T23:59:59.999999Z',
      '2027-01-01T00:00:00.999999Z',
    ]);
  });

  it('round-trips through parseTimestampMs to the millisecond', () => {
    const t = Date.UTC(2026, 8, 24, 10, 11, 12) * 1000 + 123_456;
    expect(parseTimestampMs(formatTimestamp(t))).toBeCloseTo(t / 1000, 3);
  });
});

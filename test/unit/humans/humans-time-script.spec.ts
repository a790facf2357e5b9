import { HUMANS_TIME_SCRIPT } from '../../../src/humans/assets/humans-time-script';

const relativeTime = new Function(`${HUMANS_TIME_SCRIPT}\nreturn relativeTime;`)() as (
  ts: string,
  now: number,
) => string;

/** The page's "2 min ago", the very bytes the browser runs. */
describe('/humans relative times', () => {
  const ts = '2026-11-27T18:00:00.123456Z';
  const at = Date.parse('2026-11-27T18:00:00.123Z');
  it.each([
    [0, 'just now'],
    [-5_000, 'just now'], // a reader's clock behind the service's
    [9_999, 'just now'],
    [42_000, '42 s ago'],
    [150_000, '2 min ago'],
    [3 * 3_600_000 + 5, '3 h ago'],
    [2 * 86_400_000, '2 d ago'],
    [40 * 86_400_000, '2026-11-27'],
  ])('%d ms later reads %s', (elapsed, expected) => {
    expect(relativeTime(ts, at + elapsed)).toBe(expected);
  });

  it('reads second-precision stamps of older records, and shows anything else as it is', () => {
    expect(relativeTime('2026-11-27T18:00:00Z', at + 60_000)).toBe('1 min ago');
    expect(relativeTime('yesterday', at)).toBe('yesterday');
  });
});

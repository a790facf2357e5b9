import { DuplicateFilter } from '../../../src/access/duplicate-filter';
import { DuplicateTextError } from '../../../src/access/duplicate-text.error';
import { ManualClock } from '../../../src/common/clock';
import { AppConfig } from '../../../src/config/app-config';
import { buildConfig } from '../../../src/config/load-config';

const TEXT = 'the same long sentence again';

function filter(overrides: Partial<AppConfig> = {}): { dupes: DuplicateFilter; clock: ManualClock } {
  const clock = new ManualClock();
  return { dupes: new DuplicateFilter(buildConfig(overrides), clock), clock };
}

function refusal(action: () => unknown): DuplicateTextError {
  try {
    action();
  } catch (error) {
    if (error instanceof DuplicateTextError) return error;
    throw error;
  }
  throw new Error('expected a duplicate refusal');
}

describe('duplicate filter', () => {
  it('accepts max copies per window per room, refuses the next, and frees a slot as the oldest ages out', () => {
    const { dupes, clock } = filter();
    for (let i = 0; i < 5; i++) {
      dupes.reserve('lobby', TEXT);
      clock.advanceMs(10_000);
    }
    const error = refusal(() => dupes.reserve('lobby', TEXT.toUpperCase()));
    expect(error.code).toBe('duplicate');
    expect(error.message.split('\n')[0]).toMatch(
      /^duplicate text: \/r\/lobby already holds 5 copies of this text from the last 60s/,
    );
    expect(error.message.split('\n')[4]).toMatch(
      /^optional: add &ref=422-[0-9a-f]{1,8}-[0-9a-f]{4} to your next requests\./,
    );
    expect(error.headers).toEqual({}); // never a Retry-After
    dupes.reserve('other', TEXT); // rooms are separate
    clock.advanceMs(10_001); // the first copy (t=0) is now 60.001 s old
    dupes.reserve('lobby', TEXT);
    expect(() => dupes.reserve('lobby', TEXT)).toThrow(DuplicateTextError);
  });

  it('counts only accepted copies: refusals never extend the window, released reservations free their slot', () => {
    const { dupes, clock } = filter({ dupeMaxCopies: 2 });
    dupes.reserve('r', TEXT);
    const second = dupes.reserve('r', TEXT);
    for (let i = 0; i < 10; i++) {
      clock.advanceMs(5_000);
      expect(() => dupes.reserve('r', TEXT)).toThrow(DuplicateTextError);
    }
    second.release();
    second.release(); // idempotent
    dupes.reserve('r', TEXT);
    expect(() => dupes.reserve('r', TEXT)).toThrow(DuplicateTextError);
    clock.advanceMs(10_001); // the copy accepted at t=0 is now out of the window
    dupes.reserve('r', TEXT);
  });

  it('never filters short texts, and a 0 window disables the filter', () => {
    const { dupes } = filter({ dupeMaxCopies: 1 });
    for (let i = 0; i < 10; i++) dupes.reserve('r', 'ok thanks!');
    const off = filter({ dupeMaxCopies: 1, dupeFilterSeconds: 0 }).dupes;
    for (let i = 0; i < 10; i++) off.reserve('r', TEXT);
    expect(off.size).toBe(0);
  });

  it('remembers at most dupeMaxKeys texts, dropping expired ones as it goes', () => {
    const { dupes, clock } = filter({ dupeMaxKeys: 64 });
    for (let i = 0; i < 5000; i++) dupes.reserve(`room-${i % 50}`, `${TEXT} number ${i}`);
    expect(dupes.size).toBe(64);
    clock.advanceMs(61_000);
    for (let i = 0; i < 10; i++) dupes.reserve('r', `${TEXT} later ${i}`);
    expect(dupes.size).toBeLessThan(64);
  });
});

import { TokenBucketTable } from '../../../src/access/token-bucket-table';
import { ManualClock } from '../../../src/common/clock';

describe('token buckets', () => {
  const perMinute = (n: number) => ({ capacity: n, perSecond: n / 60 });

  it('grants the burst, then refills continuously at per_min/60 tokens a second', () => {
    const clock = new ManualClock();
    const table = new TokenBucketTable(perMinute(30), 100, clock);
    const lefts = Array.from({ length: 30 }, () => table.take('a').left);
    expect(lefts[0]).toBe(29);
    expect(lefts[29]).toBe(0);
    const refused = table.take('a');
    expect(refused).toEqual({ granted: false, left: 0, waitSeconds: 2 });
    clock.advanceMs(1500);
    expect(table.take('a')).toMatchObject({ granted: false, waitSeconds: expect.closeTo(0.5, 9) });
    clock.advanceMs(500);
    expect(table.take('a')).toEqual({ granted: true, left: 0, waitSeconds: 0 });
    clock.advanceMs(3_600_000);
    expect(table.take('a').left).toBe(29); // never above the capacity
  });

  it('keeps clients apart and refunds up to the capacity only', () => {
    const clock = new ManualClock();
    const table = new TokenBucketTable({ capacity: 2, perSecond: 2 / 86_400 }, 100, clock);
    expect(table.take('a').granted).toBe(true);
    expect(table.take('a').granted).toBe(true);
    expect(table.take('a')).toMatchObject({ granted: false, waitSeconds: expect.closeTo(43_200, 6) });
    expect(table.take('b').granted).toBe(true);
    table.refund('a');
    expect(table.take('a').granted).toBe(true);
    table.refund('b');
    table.refund('b');
    expect(table.take('b').left).toBe(1);
  });

  it('never remembers more than its cap, forgetting the idlest first', () => {
    const clock = new ManualClock();
    const table = new TokenBucketTable(perMinute(10), 50, clock);
    for (let i = 0; i < 5000; i++) table.take(`client-${i}`);
    expect(table.size).toBe(50);
    for (let i = 0; i < 9; i++) table.take('busy');
    for (let i = 0; i < 100; i++) table.take(`other-${i}`);
    expect(table.size).toBe(50); // 'busy' was evicted as the idlest: it starts over full
    expect(table.take('busy').left).toBe(9);
  });

  it('drops buckets that have refilled, since a full bucket is the same as none', () => {
    const clock = new ManualClock();
    const table = new TokenBucketTable(perMinute(60), 1000, clock);
    for (let i = 0; i < 10; i++) table.take(`client-${i}`);
    expect(table.size).toBe(10);
    clock.advanceMs(1500); // each spent one token; 1.5 s refills it
    for (let i = 0; i < 5; i++) table.take('late');
    expect(table.size).toBeLessThan(10);
  });
});

import { DeliveryLag } from '../../../src/log/nats/delivery-lag';
import { StreamForkedError } from '../../../src/log/nats/nats-log.errors';
import { ScopeHeads } from '../../../src/log/nats/scope-heads';
import { soundPrefix } from '../../../src/log/nats/sound-prefix';
import { ScopeHeadsFold } from '../../../src/projections/scope-heads-fold';
import { checksum, StreamGuard } from '../../../src/log/nats/stream-guard';
import { TailRecord } from '../../../src/log/nats/stream-tail';
import { SubjectLayout } from '../../../src/log/nats/subjects';

const layout = new SubjectLayout('s');
const record = (seq: number, scope: string, expected?: number, floor?: number): TailRecord => ({
  offset: seq - 1,
  subject: layout.subject(scope),
  scope,
  payload: Buffer.from(`record ${seq}`),
  expected,
  floor,
});

function guarded(): { guard: StreamGuard; forks: StreamForkedError[] } {
  const forks: StreamForkedError[] = [];
  return { guard: new StreamGuard('s', (fork) => forks.push(fork)), forks };
}

describe('never fork: what the guard refuses to build on', () => {
  it('given two records decided against the same state of a scope, then the second and everything after it are not applied', () => {
    const { guard, forks } = guarded();
    const heads = new ScopeHeads();
    heads.deliver('r:a', 10);
    const delivered = [record(11, 'r:a', 10), record(12, 'r:b', 0), record(13, 'r:a', 10), record(14, 'r:b')];
    expect(soundPrefix(delivered, heads, guard).map((r) => r.offset + 1)).toEqual([11, 12]);
    expect(forks).toHaveLength(1);
    expect(forks[0].message).toContain('its record 13 of r:a was written against record 10, but that scope');
  });

  it('given "no record" with its writer\'s first sequence, then it holds over a last record below that sequence (purged) and nowhere else', () => {
    const { guard, forks } = guarded();
    const heads = new ScopeHeads();
    heads.deliver('r:purged', 7);
    heads.deliver('r:kept', 30);
    const delivered = [record(41, 'r:purged', 0, 20), record(42, 'r:purged'), record(43, 'r:kept', 0, 30)];
    expect(soundPrefix(delivered, heads, guard).map((r) => r.offset + 1)).toEqual([41, 42]);
    expect(forks[0].message).toContain(
      "its record 43 of r:kept was written against no record from 30 on (its writer's first sequence), but that scope's last record before it is 30",
    );
  });

  it('given "no record" without a first sequence (written before purging carried one), then it holds only where this node knows none', () => {
    const { guard, forks } = guarded();
    const heads = new ScopeHeads();
    heads.deliver('r:a', 7);
    expect(soundPrefix([record(41, 'r:a', 0)], heads, guard)).toEqual([]);
    expect(forks[0].message).toContain('its record 41 of r:a was written against record 0');
  });

  it('given a scope this node does not know, then its precondition cannot be checked and the record is applied', () => {
    const { guard, forks } = guarded();
    expect(soundPrefix([record(5, 'n:x:y', 3)], new ScopeHeads(), guard)).toHaveLength(1);
    expect(forks).toEqual([]);
  });

  it("given the runner's heads end where the batch starts, then a scope only they know (restored from a checkpoint) is checked", () => {
    const { guard, forks } = guarded();
    const applied = new ScopeHeadsFold();
    applied.restore({
      offset: 40,
      heads: [
        ['r:old', 6],
        ['r:sound', 19],
      ],
    });
    const delivered = [record(41, 'r:sound', 20), record(42, 'r:old', 0), record(43, 'r:sound', 41)];
    expect(soundPrefix(delivered, new ScopeHeads(), guard, applied).map((r) => r.offset + 1)).toEqual([41]);
    expect(forks[0].message).toContain('its record 42 of r:old was written against record 0');
    expect(forks[0].message).toContain('last record before it is 7');
  });

  it("given the runner's heads end elsewhere (still replaying at start-up), then they are not read", () => {
    const { guard, forks } = guarded();
    const applied = new ScopeHeadsFold();
    applied.restore({ offset: 30, heads: [['r:old', 6]] });
    expect(soundPrefix([record(41, 'r:old', 0)], new ScopeHeads(), guard, applied)).toHaveLength(1);
    expect(forks).toEqual([]);
  });

  it('given the stream went back below what this node applied and no confirmation window, then it is a fork naming both sequences', async () => {
    const forks: StreamForkedError[] = [];
    const guard = new StreamGuard('s', (fork) => forks.push(fork), { windowMs: 0 });
    guard.applied({ seq: 40, subject: 'x', crc: checksum(Buffer.from('a')) });
    expect(await guard.check({ firstSeq: 1, lastSeq: 31, record: () => Promise.resolve(null) })).toBe(
      'forked',
    );
    expect(forks[0].message).toContain('its last sequence is 31, but this node applied records up to 40');
    expect(guard.fork).toBe(forks[0]);
  });

  it('given another record at the sequence this node applied, then it is a fork; the same record is not', async () => {
    const { guard, forks } = guarded();
    guard.applied({ seq: 7, subject: 'x', crc: checksum(Buffer.from('mine')) });
    await guard.check({
      firstSeq: 1,
      lastSeq: 9,
      record: async () => ({ subject: 'x', data: Buffer.from('mine') }),
    });
    expect(forks).toEqual([]);
    await guard.check({
      firstSeq: 1,
      lastSeq: 9,
      record: async () => ({ subject: 'x', data: Buffer.from('other') }),
    });
    expect(forks[0].message).toContain('its record 7 is not the one this node applied');
  });

  it('given an acknowledgement at a sequence this node applied as another record, then it is a fork', () => {
    const { guard, forks } = guarded();
    guard.applied({ seq: 5, subject: 'x', crc: checksum(Buffer.from('delivered first')) });
    guard.acknowledged(5, [Buffer.from('delivered first')]);
    expect(forks).toEqual([]);
    guard.acknowledged(4, [Buffer.from('not what was applied at 4')]);
    expect(forks[0].message).toContain(
      'it stored a write of this node at 4, where this node applied another record',
    );
  });
});

describe('never fork on one view: a stream showing less than this node applied is confirmed over a window', () => {
  // The CI failure's shape: node applied 7974; during the election a replica answered 7973.
  const mine = Buffer.from('record 7974 as delivered');
  const view = (lastSeq: number, data: Buffer | null = mine) => ({
    firstSeq: 1,
    lastSeq,
    record: async () => data && { subject: 'chat.s.v2.r:shared', data },
  });

  function windowed(windowMs: number): {
    guard: StreamGuard;
    forks: StreamForkedError[];
    at: (ms: number) => void;
  } {
    const forks: StreamForkedError[] = [];
    let now = 1_000_000;
    const guard = new StreamGuard('s', (fork) => forks.push(fork), { windowMs, now: () => now });
    guard.applied({ seq: 7974, subject: 'chat.s.v2.r:shared', crc: checksum(mine) });
    return { guard, forks, at: (ms) => (now = 1_000_000 + ms) };
  }

  it('given the stream behind for a moment and then holding the record this node applied, then no fork, and a later shortfall gets a new window', async () => {
    const { guard, forks, at } = windowed(15_000);
    at(0);
    expect(await guard.check(view(7973))).toBe('unconfirmed');
    at(4_000);
    expect(await guard.check(view(7973))).toBe('unconfirmed');
    at(9_000);
    expect(await guard.check(view(7974, null))).toBe('unconfirmed'); // the new leader not there yet
    at(9_500);
    expect(await guard.check(view(7974))).toBe('consistent');
    at(20_000);
    expect(await guard.check(view(7973))).toBe('unconfirmed'); // 20 s after the first: a new window
    at(34_000);
    expect(await guard.check(view(7975))).toBe('consistent');
    expect(forks).toEqual([]);
    expect(guard.fork).toBeUndefined();
  });

  it('given the stream behind for the whole window, then it is a fork naming both sequences and how long', async () => {
    const { guard, forks, at } = windowed(15_000);
    at(0);
    expect(await guard.check(view(7973))).toBe('unconfirmed');
    at(14_999);
    expect(await guard.check(view(7973))).toBe('unconfirmed');
    expect(forks).toEqual([]);
    at(15_000);
    expect(await guard.check(view(7973))).toBe('forked');
    expect(forks).toHaveLength(1);
    expect(forks[0].message).toContain(
      'its last sequence is 7973, but this node applied records up to 7974 (still after 15.0 s)',
    );
    at(15_100);
    expect(await guard.check(view(7974))).toBe('forked'); // sticky: a later good view changes nothing
  });

  it('given the shortfall past the window but only leaderless replicas answering, then no fork until a leader says so', async () => {
    const { guard, forks, at } = windowed(15_000);
    at(0);
    expect(await guard.check({ ...view(7973), leaderless: true })).toBe('unconfirmed');
    at(30_000);
    expect(await guard.check({ ...view(7973), leaderless: true })).toBe('unconfirmed');
    expect(forks).toEqual([]);
    at(31_000);
    expect(await guard.check(view(7973))).toBe('forked');
    expect(forks[0].message).toContain('(still after 31.0 s)');
  });

  it('given a record missing where the stream claims to hold it for the whole window, then it is a fork', async () => {
    const { guard, forks, at } = windowed(2_000);
    at(0);
    expect(await guard.check(view(7980, null))).toBe('unconfirmed');
    at(2_000);
    expect(await guard.check(view(7980, null))).toBe('forked');
    expect(forks[0].message).toContain('it no longer holds record 7974, which this node applied');
  });

  it('given another record at the sequence this node applied while a shortfall is being confirmed, then it is a fork at once', async () => {
    const { guard, forks, at } = windowed(15_000);
    at(0);
    expect(await guard.check(view(7973))).toBe('unconfirmed');
    at(1_000);
    expect(await guard.check(view(7974, Buffer.from('another record 7974')))).toBe('forked');
    expect(forks[0].message).toContain(
      'its record 7974 is not the one this node applied (chat.s.v2.r:shared)',
    );
  });
});

describe('DeliveryLag: acknowledged writes the tail has not delivered back', () => {
  it('given one waiting longer than the deadline, then writes wait; once delivered, they do not', () => {
    const lag = new DeliveryLag();
    lag.acknowledged(12, 1000);
    lag.acknowledged(15, 1500);
    expect(lag.stalled(2000, 2900)).toBeUndefined();
    expect(lag.stalled(2000, 3100)?.message).toMatch(/has not delivered record 12 back for 2\.1 s/);
    lag.delivered(12);
    expect(lag.stalled(2000, 3100)).toBeUndefined();
    expect(lag.stalled(2000, 3600)?.message).toMatch(/record 15/);
  });
});

import { DeliveryLag } from '../../../src/log/nats/delivery-lag';
import { StreamForkedError } from '../../../src/log/nats/nats-log.errors';
import { ScopeHeads } from '../../../src/log/nats/scope-heads';
import { soundPrefix } from '../../../src/log/nats/sound-prefix';
import { checksum, StreamGuard } from '../../../src/log/nats/stream-guard';
import { TailRecord } from '../../../src/log/nats/stream-tail';
import { SubjectLayout } from '../../../src/log/nats/subjects';

const layout = new SubjectLayout('s');
const record = (seq: number, scope: string, expected?: number, floor?: number): TailRecord => ({
  offset: seq - 1,
  subject: layout.subject(scope),
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
    expect(soundPrefix(delivered, layout, heads, guard).map((r) => r.offset + 1)).toEqual([11, 12]);
    expect(forks).toHaveLength(1);
    expect(forks[0].message).toContain('its record 13 of r:a was written against record 10, but that scope');
  });

  it('given "no record" with its writer\'s first sequence, then it holds over a last record below that sequence (purged) and nowhere else', () => {
    const { guard, forks } = guarded();
    const heads = new ScopeHeads();
    heads.deliver('r:purged', 7);
    heads.deliver('r:kept', 30);
    const delivered = [record(41, 'r:purged', 0, 20), record(42, 'r:purged'), record(43, 'r:kept', 0, 30)];
    expect(soundPrefix(delivered, layout, heads, guard).map((r) => r.offset + 1)).toEqual([41, 42]);
    expect(forks[0].message).toContain(
      "its record 43 of r:kept was written against no record from 30 on (its writer's first sequence), but that scope's last record before it is 30",
    );
  });

  it('given "no record" without a first sequence (written before purging carried one), then it holds only where this node knows none', () => {
    const { guard, forks } = guarded();
    const heads = new ScopeHeads();
    heads.deliver('r:a', 7);
    expect(soundPrefix([record(41, 'r:a', 0)], layout, heads, guard)).toEqual([]);
    expect(forks[0].message).toContain('its record 41 of r:a was written against record 0');
  });

  it('given a scope this node does not know, then its precondition cannot be checked and the record is applied', () => {
    const { guard, forks } = guarded();
    expect(soundPrefix([record(5, 'n:x:y', 3)], layout, new ScopeHeads(), guard)).toHaveLength(1);
    expect(forks).toEqual([]);
  });

  it('given the stream went back below what this node applied, then it is a fork naming both sequences', async () => {
    const { guard, forks } = guarded();
    guard.applied({ seq: 40, subject: 'x', crc: checksum(Buffer.from('a')) });
    await guard.check({ firstSeq: 1, lastSeq: 31, record: () => Promise.resolve(null) });
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

import { EventLog, LogRecord, LogScope } from '../../src/log/event-log';
import { LogConflictError, LogUnavailableError } from '../../src/log/log.errors';

/** One backend instance under test, on fresh storage. */
export interface EventLogHarness {
  /** A new, not yet opened log over fresh storage. */
  readonly log: EventLog;
  /** A new, not yet opened log over the same storage (persistent backends only). */
  readonly reopen?: () => EventLog;
  /** Releases the storage (temp dir, stream). Called after every test, after the logs are closed. */
  dispose(): Promise<void> | void;
}

export type EventLogFactory = () => Promise<EventLogHarness> | EventLogHarness;

export interface ContractOptions {
  /** The backend keeps records across instances: runs the reopen scenarios (harness.reopen required). */
  readonly persistent?: boolean;
  /**
   * Several open instances may write the same storage at once (the nats backend: one stream, N nodes):
   * runs the shared-writer scenarios on two instances (harness.reopen required).
   */
  readonly shared?: boolean;
}

const text = (value: string): Buffer => Buffer.from(value, 'utf8');

export async function readAll(log: EventLog, from = 0, until?: number): Promise<LogRecord[]> {
  const records: LogRecord[] = [];
  for await (const record of log.read(from, until === undefined ? {} : { until })) records.push(record);
  return records;
}

/** Waits (bounded, generously) for another instance to have seen what the shared storage holds. */
async function eventually(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  expect(condition()).toBe(true);
}

/** Waits until the log committed (delivered to readers) everything below `next`. */
async function settled(log: EventLog, next: number): Promise<void> {
  await eventually(() => log.committedHead() >= next);
}

const room = (name: string): LogScope => ['r', name];

export const describeRecords = (records: readonly LogRecord[]): string[] =>
  records.map((r) => `${r.offset}:${r.payload.toString('utf8')}`);

/**
 * The EventLog behaviour every backend must show: the port's invariants as given/when/then scenarios.
 * Each backend's spec calls this once per configuration; nothing here knows which backend it drives.
 */
export function describeEventLogContract(
  name: string,
  factory: EventLogFactory,
  options: ContractOptions = {},
) {
  describe(`EventLog contract: ${name}`, () => {
    let harness: EventLogHarness;
    let log: EventLog;
    const opened: EventLog[] = [];

    const track = async (instance: EventLog): Promise<EventLog> => {
      opened.push(instance);
      await instance.open();
      return instance;
    };

    beforeEach(async () => {
      harness = await factory();
      log = await track(harness.log);
    });

    afterEach(async () => {
      for (const instance of opened.splice(0)) await instance.close().catch(() => undefined);
      await harness.dispose();
    });

    it('given an empty log, then committed head and first offset are 0 and read yields nothing', async () => {
      expect([log.committedHead(), log.firstOffset()]).toEqual([0, 0]);
      expect(await readAll(log)).toEqual([]);
    });

    it('when appending, then each call returns the offset of its first record and the next one', async () => {
      expect(await log.append([text('a'), text('b')])).toEqual({ first: 0, next: 2 });
      expect(await log.append([text('c')])).toEqual({ first: 2, next: 3 });
      await settled(log, 3);
      expect(log.committedHead()).toBe(3);
      expect(describeRecords(await readAll(log))).toEqual(['0:a', '1:b', '2:c']);
    });

    it('when appending without awaiting, then nothing is committed in the same step and read sees none of it', async () => {
      const pending = log.append([text('x'), text('y')]);
      expect(log.committedHead()).toBe(0);
      expect(describeRecords(await readAll(log))).toEqual([]);
      await pending;
      await settled(log, 2);
      expect(log.committedHead()).toBe(2);
    });

    it('when many appends race, then offsets are contiguous in call order and read returns them in order', async () => {
      const sizes = Array.from({ length: 40 }, (_, i) => (i % 3) + 1);
      const calls = sizes.map((size, i) =>
        log.append(Array.from({ length: size }, (_, k) => text(`call${i}-rec${k}`))),
      );
      const results = await Promise.all(calls);
      let expected = 0;
      for (const [i, result] of results.entries()) {
        expect(result).toEqual({ first: expected, next: expected + sizes[i] });
        expected = result.next;
      }
      await settled(log, expected);
      const records = await readAll(log);
      expect(records.map((r) => r.offset)).toEqual(Array.from({ length: expected }, (_, i) => i));
      expect(records[0].payload.toString()).toBe('call0-rec0');
      expect(records[expected - 1].payload.toString()).toBe(`call39-rec${sizes[39] - 1}`);
    });

    it('when appends to one scope race, then they are stored in call order', async () => {
      const calls = Array.from({ length: 12 }, (_, i) =>
        log.append([text(`lobby ${i}`)], { scopes: [room('lobby')], readThrough: 0 }),
      );
      const firsts = (await Promise.all(calls)).map((result) => result.first);
      expect(firsts).toEqual([...firsts].sort((a, b) => a - b));
      await settled(log, 12);
      expect(describeRecords(await readAll(log))).toEqual(
        Array.from({ length: 12 }, (_, i) => `${i}:lobby ${i}`),
      );
    });

    it('given a refused append, then onFailed runs before the promise rejects and nothing is stored', async () => {
      await log.append([text('kept')]);
      await log.close();
      const order: string[] = [];
      const refused = log.append([text('too late')], { onFailed: () => order.push('onFailed') });
      order.push('returned');
      await expect(refused).rejects.toBeInstanceOf(LogUnavailableError);
      expect(order).toEqual(['onFailed', 'returned']);
    });

    it('when reading from the middle or with until, then only that range comes back', async () => {
      await log.append(['r0', 'r1', 'r2', 'r3', 'r4'].map(text));
      await settled(log, 5);
      expect(describeRecords(await readAll(log, 2))).toEqual(['2:r2', '3:r3', '4:r4']);
      expect(describeRecords(await readAll(log, 1, 3))).toEqual(['1:r1', '2:r2']);
      expect(describeRecords(await readAll(log, 3, 99))).toEqual(['3:r3', '4:r4']);
      expect(await readAll(log, 5)).toEqual([]);
    });

    it('when a read starts, then records committed later are not part of it', async () => {
      await log.append([text('before')]);
      await settled(log, 1);
      const iterable = log.read(0);
      await log.append([text('after')]);
      const seen: string[] = [];
      for await (const record of iterable) seen.push(record.payload.toString());
      expect(seen).toEqual(['before']);
    });

    it('given payloads of any bytes, then they come back byte for byte', async () => {
      const binary = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
      await log.append([Buffer.alloc(0), binary, Buffer.alloc(70_000, 0xab)]);
      await settled(log, 3);
      const records = await readAll(log);
      expect(records.map((r) => r.payload.length)).toEqual([0, 256, 70_000]);
      expect(records[1].payload.equals(binary)).toBe(true);
    });

    it('given a subscriber, then it sees every committed record once, in order, until it unsubscribes', async () => {
      const seen: number[] = [];
      const unsubscribe = log.subscribe((batch) => batch.forEach((r) => seen.push(r.offset)));
      await Promise.all(Array.from({ length: 25 }, (_, i) => log.append([text(`m${i}`), text(`n${i}`)])));
      await eventually(() => seen.length === 50);
      expect(seen).toEqual(Array.from({ length: 50 }, (_, i) => i));
      unsubscribe();
      await log.append([text('unseen')]);
      expect(seen).toHaveLength(50);
    });

    it('when retention runs, then what remains starts at first offset and is intact', async () => {
      await log.append(['a', 'b', 'c', 'd', 'e'].map(text));
      await settled(log, 5);
      await log.truncateBefore(3);
      const first = log.firstOffset();
      expect(first).toBeLessThanOrEqual(3);
      const rest = await readAll(log, 0);
      expect(rest.map((r) => r.offset)).toEqual([0, 1, 2, 3, 4].slice(first));
      expect(log.committedHead()).toBe(5);
    });

    it('given a closed log, then appends reject with LogUnavailableError and pending ones were committed', async () => {
      const pending = log.append([text('in flight')]);
      await log.close();
      expect(await pending).toEqual({ first: 0, next: 1 });
      await expect(log.append([text('too late')])).rejects.toBeInstanceOf(LogUnavailableError);
      await log.close();
    });

    if (options.shared) {
      it('given two writers racing in one scope, then one is stored and the other is refused whole', async () => {
        const other = await track(harness.reopen!());
        // Both decide against an empty scope in the same turn: the server takes one batch and refuses
        // the other, including its second record.
        const [mine, theirs] = await Promise.allSettled([
          log.append([text('mine-1'), text('mine-2')], { scopes: [room('x'), room('x')], readThrough: 0 }),
          other.append([text('theirs')], { scopes: [room('x')], readThrough: 0 }),
        ]);
        const [winner, loser, won, lost] =
          mine.status === 'fulfilled'
            ? [log, other, ['mine-1', 'mine-2'], ['theirs']]
            : [other, log, ['theirs'], ['mine-1', 'mine-2']];
        const refusal = (mine.status === 'fulfilled' ? theirs : mine) as PromiseRejectedResult;
        expect(refusal.reason).toBeInstanceOf(LogConflictError);
        expect(refusal.reason).toMatchObject({ code: 'log_conflict' });
        // The record the loser must apply before deciding again: the winner's last one.
        expect((refusal.reason as LogConflictError).mustApply).toBe(won.length - 1);
        await settled(loser, won.length);
        const retried = await loser.append(lost.map(text), {
          scopes: lost.map(() => room('x')),
          readThrough: loser.committedHead(),
        });
        expect(retried).toEqual({ first: won.length, next: won.length + lost.length });
        await settled(winner, retried.next);
        const expected = [...won, ...lost].map((value, i) => `${i}:${value}`);
        expect(describeRecords(await readAll(winner))).toEqual(expected);
        expect(describeRecords(await readAll(loser))).toEqual(expected);
      });

      it('given two writers in different scopes, then neither ever conflicts, whatever they had read', async () => {
        const other = await track(harness.reopen!());
        const writes = Array.from({ length: 20 }, (_, i) => [
          log.append([text(`a${i}`)], { scopes: [room('a')], readThrough: 0 }),
          other.append([text(`b${i}`)], { scopes: [room('b')], readThrough: 0 }),
        ]).flat();
        const results = await Promise.allSettled(writes);
        expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
        await settled(log, 40);
        const stored = describeRecords(await readAll(log)).map((line) => line.split(':')[1]);
        expect(stored.filter((value) => value.startsWith('a'))).toEqual(
          Array.from({ length: 20 }, (_, i) => `a${i}`),
        );
        expect(stored.filter((value) => value.startsWith('b'))).toEqual(
          Array.from({ length: 20 }, (_, i) => `b${i}`),
        );
      });

      it('given a refused write, then a write joined behind it in its scope fails too, onFailed first for both', async () => {
        const other = await track(harness.reopen!());
        await other.append([text('theirs')], { scopes: [room('y')], readThrough: 0 });
        const events: string[] = [];
        const first = log.append([text('decided on nothing')], {
          scopes: [room('y')],
          readThrough: 0,
          onFailed: () => events.push('onFailed 1'),
        });
        const second = log.append([text('decided on the first')], {
          scopes: [room('y')],
          readThrough: 0,
          onFailed: () => events.push('onFailed 2'),
        });
        const elsewhere = log.append([text('another scope')], { scopes: [room('z')], readThrough: 0 });
        const outcomes = await Promise.allSettled([
          first.catch((e: unknown) => (events.push('rejected 1'), Promise.reject(e))),
          second.catch((e: unknown) => (events.push('rejected 2'), Promise.reject(e))),
          elsewhere,
        ]);
        expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'fulfilled']);
        expect((outcomes[0] as PromiseRejectedResult).reason).toBeInstanceOf(LogConflictError);
        expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(LogConflictError);
        expect(events.slice(0, 2).sort()).toEqual(['onFailed 1', 'onFailed 2']);
        expect(events.slice(2).sort()).toEqual(['rejected 1', 'rejected 2']);
      });

      it('given a scope this instance never saw, then its write goes through once it applied the scope’s records', async () => {
        const other = await track(harness.reopen!());
        await other.append([text('older')], { scopes: [room('w')], readThrough: 0 });
        await settled(log, 1);
        // A write that read the record is stored; one decided before it arrived is refused.
        const stale = log.append([text('decided before')], { scopes: [room('w')], readThrough: 0 });
        await expect(stale).rejects.toBeInstanceOf(LogConflictError);
        const fresh = await log.append([text('decided after')], { scopes: [room('w')], readThrough: 1 });
        expect(fresh).toEqual({ first: 1, next: 2 });
      });

      it('given two instances, then each subscriber sees the other one’s records in the same order', async () => {
        const other = await track(harness.reopen!());
        const seenHere: number[] = [];
        const seenThere: number[] = [];
        log.subscribe((batch) => batch.forEach((r) => seenHere.push(r.offset)));
        other.subscribe((batch) => batch.forEach((r) => seenThere.push(r.offset)));
        await other.append([text('a'), text('b')]);
        await eventually(() => log.committedHead() === 2);
        await log.append([text('c')], { readThrough: 2 });
        await eventually(() => other.committedHead() === 3 && seenHere.length === 3);
        expect([seenHere, seenThere]).toEqual([
          [0, 1, 2],
          [0, 1, 2],
        ]);
      });
    }

    if (options.persistent) {
      it('given a reopened log, then records and head survive and offsets continue', async () => {
        await log.append(['one', 'two'].map(text));
        const unawaited = log.append([text('three')]);
        await log.close();
        await unawaited;
        const again = await track(harness.reopen!());
        expect(again.committedHead()).toBe(3);
        expect(describeRecords(await readAll(again))).toEqual(['0:one', '1:two', '2:three']);
        expect(await again.append([text('four')], { readThrough: 3 })).toEqual({ first: 3, next: 4 });
      });
    }
  });
}

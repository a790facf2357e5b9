import { EventLog, LogRecord } from '../../src/log/event-log';
import { ExpectedHeadMismatchError, LogUnavailableError } from '../../src/log/log.errors';

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

    it('given an empty log, then head, committed head and first offset are 0 and read yields nothing', async () => {
      expect([log.head(), log.committedHead(), log.firstOffset()]).toEqual([0, 0, 0]);
      expect(await readAll(log)).toEqual([]);
    });

    it('when appending, then each call returns the offset of its first record and the new head', async () => {
      expect(await log.append([text('a'), text('b')])).toEqual({ first: 0, next: 2 });
      expect(await log.append([text('c')])).toEqual({ first: 2, next: 3 });
      expect(await log.append([])).toEqual({ first: 3, next: 3 });
      expect([log.head(), log.committedHead()]).toEqual([3, 3]);
    });

    it('when appending without awaiting, then head counts the records at once and commit follows', async () => {
      const pending = log.append([text('x'), text('y')]);
      expect(log.head()).toBe(2);
      expect(log.committedHead()).toBe(0);
      expect(describeRecords(await readAll(log))).toEqual([]);
      await pending;
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
      const records = await readAll(log);
      expect(records.map((r) => r.offset)).toEqual(Array.from({ length: expected }, (_, i) => i));
      expect(records[0].payload.toString()).toBe('call0-rec0');
      expect(records[expected - 1].payload.toString()).toBe(`call39-rec${sizes[39] - 1}`);
    });

    it('given a head conflict, then nothing is written and the error carries both values', async () => {
      await log.append([text('first')]);
      const error = await log.append([text('late')], { expectedHead: 0 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ExpectedHeadMismatchError);
      expect(error).toMatchObject({ code: 'log_conflict', expected: 0, actual: 1 });
      expect(log.head()).toBe(1);
      expect(describeRecords(await readAll(log))).toEqual(['0:first']);
    });

    it('given an uncommitted append, then expectedHead is checked against the head including it', async () => {
      const earlier = log.append([text('a')]);
      const result = await log.append([text('b')], { expectedHead: 1 });
      await earlier;
      expect(result).toEqual({ first: 1, next: 2 });
    });

    it('when reading from the middle or with until, then only that range comes back', async () => {
      await log.append(['r0', 'r1', 'r2', 'r3', 'r4'].map(text));
      expect(describeRecords(await readAll(log, 2))).toEqual(['2:r2', '3:r3', '4:r4']);
      expect(describeRecords(await readAll(log, 1, 3))).toEqual(['1:r1', '2:r2']);
      expect(describeRecords(await readAll(log, 3, 99))).toEqual(['3:r3', '4:r4']);
      expect(await readAll(log, 5)).toEqual([]);
    });

    it('when a read starts, then records committed later are not part of it', async () => {
      await log.append([text('before')]);
      const iterable = log.read(0);
      await log.append([text('after')]);
      const seen: string[] = [];
      for await (const record of iterable) seen.push(record.payload.toString());
      expect(seen).toEqual(['before']);
    });

    it('given payloads of any bytes, then they come back byte for byte', async () => {
      const binary = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
      await log.append([Buffer.alloc(0), binary, Buffer.alloc(70_000, 0xab)]);
      const records = await readAll(log);
      expect(records.map((r) => r.payload.length)).toEqual([0, 256, 70_000]);
      expect(records[1].payload.equals(binary)).toBe(true);
    });

    it('given a subscriber, then it sees every committed record once, in order, until it unsubscribes', async () => {
      const seen: number[] = [];
      const unsubscribe = log.subscribe((batch) => batch.forEach((r) => seen.push(r.offset)));
      await Promise.all(Array.from({ length: 25 }, (_, i) => log.append([text(`m${i}`), text(`n${i}`)])));
      expect(seen).toEqual(Array.from({ length: 50 }, (_, i) => i));
      unsubscribe();
      await log.append([text('unseen')]);
      expect(seen).toHaveLength(50);
    });

    it('when retention runs, then what remains starts at first offset and is intact', async () => {
      await log.append(['a', 'b', 'c', 'd', 'e'].map(text));
      await log.truncateBefore(3);
      const first = log.firstOffset();
      expect(first).toBeLessThanOrEqual(3);
      const rest = await readAll(log, 0);
      expect(rest.map((r) => r.offset)).toEqual([0, 1, 2, 3, 4].slice(first));
      expect(log.head()).toBe(5);
    });

    it('given a closed log, then appends reject with LogUnavailableError and pending ones were committed', async () => {
      const pending = log.append([text('in flight')]);
      await log.close();
      expect(await pending).toEqual({ first: 0, next: 1 });
      await expect(log.append([text('too late')])).rejects.toBeInstanceOf(LogUnavailableError);
      await log.close();
    });

    if (options.shared) {
      it('given two writers racing for the same offset, then one wins and the other is refused whole', async () => {
        const other = await track(harness.reopen!());
        // Both decide against offset 0 in the same turn: the server takes one and refuses the other,
        // including the loser's second record (its predecessor never landed).
        const [mine, theirs] = await Promise.allSettled([
          log.append([text('mine-1'), text('mine-2')]),
          other.append([text('theirs')]),
        ]);
        const [winner, loser, won, lost] =
          mine.status === 'fulfilled'
            ? [log, other, ['mine-1', 'mine-2'], ['theirs']]
            : [other, log, ['theirs'], ['mine-1', 'mine-2']];
        const refusal = (mine.status === 'fulfilled' ? theirs : mine) as PromiseRejectedResult;
        expect(refusal.reason).toBeInstanceOf(ExpectedHeadMismatchError);
        expect(refusal.reason).toMatchObject({ code: 'log_conflict', expected: 0 });
        // The head the refusal saw: the winner's first record at least (its second may still be in flight).
        expect((refusal.reason as ExpectedHeadMismatchError).actual).toBeGreaterThanOrEqual(1);
        await loser.caughtUp!();
        expect([loser.head(), loser.committedHead()]).toEqual([won.length, won.length]);
        const retried = await loser.append(lost.map(text));
        expect(retried).toEqual({ first: won.length, next: won.length + lost.length });
        await eventually(() => winner.committedHead() === retried.next);
        const expected = [...won, ...lost].map((value, i) => `${i}:${value}`);
        expect(describeRecords(await readAll(winner))).toEqual(expected);
        expect(describeRecords(await readAll(loser))).toEqual(expected);
      });

      it('given two instances, then each subscriber sees the other one’s records in the same order', async () => {
        const other = await track(harness.reopen!());
        const seenHere: number[] = [];
        const seenThere: number[] = [];
        log.subscribe((batch) => batch.forEach((r) => seenHere.push(r.offset)));
        other.subscribe((batch) => batch.forEach((r) => seenThere.push(r.offset)));
        await other.append([text('a'), text('b')]);
        await eventually(() => log.committedHead() === 2);
        await log.append([text('c')]);
        await eventually(() => other.committedHead() === 3);
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
        expect([again.head(), again.committedHead()]).toEqual([3, 3]);
        expect(describeRecords(await readAll(again))).toEqual(['0:one', '1:two', '2:three']);
        expect(await again.append([text('four')])).toEqual({ first: 3, next: 4 });
      });
    }
  });
}

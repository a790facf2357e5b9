import { AppendResult } from '../../../src/log/event-log';
import { LogConflictError, LogUnavailableError } from '../../../src/log/log.errors';
import { AppendChains, ChainIo } from '../../../src/log/nats/append-chains';
import { OutgoingMessage } from '../../../src/log/nats/publish-batch';
import { ScopeHeads } from '../../../src/log/nats/scope-heads';

/** A stream the test answers by hand: every send waits until the test acknowledges or refuses it. */
class HandStream implements ChainIo {
  readonly sent: Array<{
    readonly messages: readonly OutgoingMessage[];
    ack(lastSeq: number): void;
    refuse(error: Error): void;
  }> = [];
  readonly lookups: string[] = [];
  stored = new Map<string, number>();
  /** The stream's first sequence: what `refreshFloor` answers; `floor` answers what was read last. */
  firstSeq = 1;
  seenFloor = 1;
  floorReads = 0;

  send(messages: readonly OutgoingMessage[]): Promise<number> {
    return new Promise((resolve, reject) => this.sent.push({ messages, ack: resolve, refuse: reject }));
  }
  async lookup(scope: string): Promise<number> {
    this.lookups.push(scope);
    return this.stored.get(scope) ?? 0;
  }
  floor(): number {
    return this.seenFloor;
  }
  async refreshFloor(): Promise<number> {
    this.floorReads++;
    this.seenFloor = this.firstSeq;
    return this.firstSeq;
  }
  blocked(): Error | undefined {
    return undefined;
  }
  failure(error: unknown): Error {
    return error as Error;
  }
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

function appender(chains: AppendChains, log: string[]) {
  return (name: string, scopes: string[], readThrough = 100): Promise<AppendResult> =>
    new Promise((resolve, reject) =>
      chains.append({
        payloads: scopes.map((scope) => Buffer.from(`${name}@${scope}`)),
        subjects: scopes.map((scope) => `s.${scope}`),
        scopes,
        readThrough,
        onFailed: () => log.push(`onFailed ${name}`),
        resolve,
        reject: (error) => {
          log.push(`reject ${name}`);
          reject(error);
        },
      }),
    );
}

describe('AppendChains: per-scope chains of batches', () => {
  let stream: HandStream;
  let heads: ScopeHeads;
  let events: string[];
  let append: ReturnType<typeof appender>;

  beforeEach(() => {
    stream = new HandStream();
    heads = new ScopeHeads();
    heads.deliver('r:a', 7);
    heads.deliver('r:b', 9);
    events = [];
    append = appender(new AppendChains(heads, stream), events);
  });

  it('given appends to one scope in one turn, then they go as one batch, the precondition on the first message only', async () => {
    const first = append('w1', ['r:a']);
    const second = append('w2', ['r:a']);
    await turn();
    expect(stream.sent).toHaveLength(1);
    expect(stream.sent[0].messages.map((m) => m.expect)).toEqual([7, undefined]);
    stream.sent[0].ack(21);
    expect(await first).toEqual({ first: 19, next: 20 });
    expect(await second).toEqual({ first: 20, next: 21 });
  });

  it('given a batch in flight, then a later append to its scope waits and expects the acknowledged sequence', async () => {
    const first = append('w1', ['r:a']);
    await turn();
    const second = append('w2', ['r:a']);
    const third = append('w3', ['r:a']);
    await turn();
    expect(stream.sent).toHaveLength(1);
    stream.sent[0].ack(30);
    await first;
    await turn();
    expect(stream.sent).toHaveLength(2);
    expect(stream.sent[1].messages.map((m) => m.expect)).toEqual([30, undefined]);
    stream.sent[1].ack(32);
    expect([await second, await third]).toEqual([
      { first: 30, next: 31 },
      { first: 31, next: 32 },
    ]);
  });

  it('given appends to different scopes, then they go in separate batches in the same turn', async () => {
    void append('w1', ['r:a']);
    void append('w2', ['r:b']);
    await turn();
    expect(stream.sent.map((s) => s.messages[0].expect)).toEqual([7, 9]);
  });

  it('given a refused batch, then every append chained behind it fails too, all onFailed before any rejection', async () => {
    const first = append('w1', ['r:a']);
    await turn();
    const behind = append('w2', ['r:a', 'r:b']);
    const elsewhere = append('w3', ['r:c']);
    await turn();
    const conflict = new LogConflictError(40, 'test');
    stream.sent[0].refuse(conflict);
    await expect(first).rejects.toBe(conflict);
    await expect(behind).rejects.toBe(conflict);
    expect(events).toEqual(['onFailed w1', 'onFailed w2', 'reject w1', 'reject w2']);
    stream.sent[1].ack(5);
    expect(await elsewhere).toEqual({ first: 4, next: 5 });
  });

  it('given a scope nobody here knew, then it is looked up, and a record the decision had not read is a conflict', async () => {
    stream.stored.set('n:x:y', 50);
    const read = append('w1', ['n:x:y'], 50);
    const unread = expect(append('w2', ['n:x:z'], 10)).rejects.toBeInstanceOf(LogConflictError);
    stream.stored.set('n:x:z', 12);
    await turn();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(stream.lookups.sort()).toEqual(['n:x:y', 'n:x:z']);
    await unread;
    expect(stream.sent).toHaveLength(1);
    expect(stream.sent[0].messages[0].expect).toBe(50);
    stream.sent[0].ack(51);
    expect(await read).toEqual({ first: 50, next: 51 });
  });

  it('given a delivered record past what the decision read, then the append is refused at once', async () => {
    await expect(append('w1', ['r:b'], 5)).rejects.toBeInstanceOf(LogConflictError);
    expect(events).toEqual(['onFailed w1', 'reject w1']);
    await turn();
    expect(stream.sent).toEqual([]);
  });

  it('given its own acknowledged record not delivered yet, then the next append expects it', async () => {
    const first = append('w1', ['r:a']);
    await turn();
    stream.sent[0].ack(60);
    await first;
    void append('w2', ['r:a'], 8);
    await turn();
    expect(stream.sent[1].messages[0].expect).toBe(60);
  });

  it('given a known last record below the stream\'s first sequence, then the batch goes with "no record" and the first sequence read before sending', async () => {
    stream.seenFloor = 8; // r:a's last record (7) was purged, r:b's (9) was not
    stream.firstSeq = 9;
    const purged = append('w1', ['r:a']);
    const kept = append('w2', ['r:b']);
    await turn();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(stream.sent.map((s) => s.messages.map((m) => [m.expect, m.floor]))).toEqual([
      [[9, undefined]],
      [[0, 9]],
    ]);
    expect(stream.floorReads).toBe(1);
    stream.sent[1].ack(12);
    expect(await purged).toEqual({ first: 11, next: 12 });
    void kept;
  });

  it('given a scope the stream holds no record of, then "no record" carries the first sequence read after the lookup, and none on an unpurged stream', async () => {
    stream.firstSeq = 40;
    void append('w1', ['n:new:one'], 50);
    await turn();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(stream.sent[0].messages[0]).toMatchObject({ expect: 0, floor: 40 });

    const fresh = new HandStream();
    void appender(new AppendChains(new ScopeHeads(), fresh), events)('w2', ['n:new:two'], 50);
    await turn();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(fresh.sent[0].messages[0]).toMatchObject({ expect: 0, floor: undefined });
  });

  it('given the stream cannot be reached, then queued appends fail with it', async () => {
    const unreachable: ChainIo = {
      send: (messages) => stream.send(messages),
      lookup: (scope) => stream.lookup(scope),
      failure: (error) => stream.failure(error),
      floor: () => stream.floor(),
      refreshFloor: () => stream.refreshFloor(),
      blocked: () => new LogUnavailableError('lost'),
    };
    const refused = appender(new AppendChains(heads, unreachable), events)('w1', ['r:a']);
    await expect(refused).rejects.toBeInstanceOf(LogUnavailableError);
  });
});

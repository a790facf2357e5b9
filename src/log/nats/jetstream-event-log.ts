import { JetStreamClient, jetstream, jetstreamManager, JetStreamManager } from '@nats-io/jetstream';
import { NatsConnection, nuid } from '@nats-io/nats-core';
import { AppendOptions, AppendResult, CommitListener, EventLog, LogRecord, ReadOptions } from '../event-log';
import { ExpectedHeadMismatchError, LogUnavailableError } from '../log.errors';
import { CommitWaiters } from './commit-waiters';
import { watchConnection } from './connection-watch';
import { connectNats } from './nats-connection';
import { logSubject, NatsLogOptions } from './nats-log.options';
import { publishFailure } from './publish-failure';
import { PublishQueue } from './publish-queue';
import { ensureStream } from './stream-spec';
import { readStream, seqOf } from './stream-reader';
import { StreamTail } from './stream-tail';
import { TailWatchdog } from './tail-watchdog';

interface Connected {
  readonly nc: NatsConnection;
  readonly js: JetStreamClient;
  readonly jsm: JetStreamManager;
  readonly tail: StreamTail;
}

/**
 * The EventLog on a NATS JetStream stream, shared by every node of a deployment. Offset = stream
 * sequence − 1; one record is one message on `chat.<stream>.log`.
 *
 * Offsets are assigned when `append` is called, as in the file log, and every message carries the
 * server-checked precondition that makes that assignment true: `Nats-Expected-Last-Sequence` = its
 * offset (the stream holds exactly the records before it) plus, when the record before it is this
 * node's own and may still be in flight, `Nats-Expected-Last-Msg-Id` = that record's id, so a record
 * whose predecessor was refused is refused too (no record lands on a state its writer never decided
 * against). A node that loses such a race gets ExpectedHeadMismatchError and re-synchronises its head
 * from the stream before it takes new appends. `Nats-Msg-Id` is unique per record.
 *
 * Commit means "acknowledged by JetStream and delivered back by the tail consumer": subscribers see
 * every node's records in stream order, and an append resolves only once its own records came back,
 * so a caller that then awaits the projections reads its own write. Acknowledgement durability is
 * NATS's: with one replica an ack precedes any fsync (docs/scaling.md).
 */
export class JetStreamEventLog implements EventLog {
  private conn: Connected | undefined;
  private state: 'new' | 'open' | 'closed' = 'new';
  private closing: Promise<void> | undefined;
  private nextOffset = 0;
  private committedNext = 0;
  private first = 0;
  private readonly node = nuid.next();
  private counter = 0;
  /** The newest record this node published: its offset and Nats-Msg-Id. */
  private chain: { offset: number; id: string } | undefined;
  private unacked = 0;
  private resyncing: Promise<void> | undefined;
  private disconnected: LogUnavailableError | undefined;
  private readonly waiters: CommitWaiters;
  private readonly queue = new PublishQueue();
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly listeners = new Set<CommitListener>();
  private readonly subject: string;
  private watchdog: TailWatchdog | undefined;

  constructor(private readonly options: NatsLogOptions) {
    this.subject = logSubject(options.stream);
    this.waiters = new CommitWaiters(options.timeoutMs);
  }

  async open(): Promise<void> {
    if (this.state !== 'new') throw new Error('JetStreamEventLog.open() may be called only once');
    this.state = 'open';
    const nc = await connectNats(this.options);
    try {
      const jsm = await jetstreamManager(nc, { timeout: this.options.timeoutMs });
      const info = await ensureStream(jsm, this.options);
      this.nextOffset = this.committedNext = info.state.last_seq;
      this.first = Math.max(0, info.state.first_seq - 1);
      const js = jetstream(nc, { timeout: this.options.timeoutMs });
      const tail = new StreamTail(
        this.committedNext,
        js,
        this.options.stream,
        (records) => this.commit(records),
        (m) => this.options.logger?.warn(m),
        this.options.timeoutMs,
      );
      await tail.start();
      this.conn = { nc, js, jsm, tail };
      this.watchdog = new TailWatchdog(
        tail,
        async () => (await jsm.streams.info(this.options.stream)).state.last_seq,
      );
    } catch (error) {
      await nc.close();
      throw error;
    }
    void watchConnection(nc, this.options, (lost) => (this.disconnected = lost));
    this.watchdog.start();
    this.options.logger?.log(
      `JetStream stream ${this.options.stream}: offsets ${this.first}..${this.committedNext} ` +
        `(${this.options.replicas} replica(s), servers ${this.options.servers.join(',')})`,
    );
  }

  head(): number {
    return this.nextOffset;
  }

  committedHead(): number {
    return this.committedNext;
  }

  firstOffset(): number {
    return this.first;
  }

  append(payloads: readonly Buffer[], options: AppendOptions = {}): Promise<AppendResult> {
    if (this.state !== 'open' || this.closing || !this.conn) {
      return Promise.reject(new LogUnavailableError(this.closing ? 'closed' : 'not open'));
    }
    if (this.disconnected) return Promise.reject(this.disconnected);
    const expected = options.expectedHead ?? this.nextOffset;
    if (this.resyncing || expected !== this.nextOffset) {
      return Promise.reject(new ExpectedHeadMismatchError(expected, this.nextOffset));
    }
    const first = this.nextOffset;
    const next = first + payloads.length;
    this.nextOffset = next;
    const published = payloads.map((payload, i) => this.queue.defer(() => this.publish(payload, first + i)));
    const done = Promise.all(published)
      .then(() => this.whenCommitted(next))
      .then(() => ({ first, next }));
    this.inFlight.add(done);
    void done.catch(() => undefined).finally(() => this.inFlight.delete(done));
    return done;
  }

  read(from: number, options: ReadOptions = {}): AsyncIterable<LogRecord> {
    const until = Math.min(options.until ?? this.committedNext, this.committedNext);
    const start = Math.max(from, this.first);
    if (!this.conn || start >= until) return (async function* () {})();
    return readStream(this.conn.js, this.options.stream, start, until);
  }

  subscribe(listener: CommitListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Nothing to fsync from a client: waits until every append in flight is acknowledged (or failed). */
  async sync(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  /**
   * The re-synchronisation after a refused publish, bounded by the publish deadline: with NATS lost
   * it cannot finish, and a writer waiting here must get its 503 (the next append) instead of hanging.
   */
  caughtUp(): Promise<void> {
    const resyncing = this.resyncing;
    if (!resyncing) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, this.options.timeoutMs);
      void resyncing.finally(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  backlog(): number {
    return this.conn?.tail.backlog ?? 0;
  }

  writeFault(): Error | undefined {
    return this.disconnected;
  }

  /**
   * Never deletes: other nodes, and any node starting from an empty CHAT_ROOT, replay the stream
   * from its first record, and one node's checkpoint says nothing about theirs (docs/scaling.md).
   */
  async truncateBefore(): Promise<void> {}

  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    this.state = 'closed';
    this.watchdog?.stop();
    await Promise.allSettled([...this.inFlight]);
    const conn = this.conn;
    if (!conn) return;
    conn.tail.stop();
    await conn.nc.close();
  }

  /** Publishes one record with the precondition that makes its assigned offset true. */
  private async publish(payload: Buffer, offset: number): Promise<void> {
    const { js } = this.conn!;
    const id = `${this.node}-${++this.counter}`;
    const predecessor = this.chain?.offset === offset - 1 ? this.chain.id : undefined;
    this.chain = { offset, id };
    this.unacked++;
    try {
      const ack = await js.publish(this.subject, payload, {
        msgID: id,
        timeout: this.options.timeoutMs,
        expect: { lastSequence: offset, ...(predecessor ? { lastMsgID: predecessor } : {}) },
      });
      if (ack.seq !== seqOf(offset)) {
        throw new LogUnavailableError(`NATS stored record ${offset} at sequence ${ack.seq}`);
      }
    } catch (error) {
      this.resync();
      const failure = error instanceof LogUnavailableError ? error : publishFailure(error, offset);
      // A publish sent just before the connection dropped fails by its timeout; the lost connection
      // is the cause an operator needs to read, whichever of the two the client noticed first.
      throw failure instanceof LogUnavailableError ? (this.disconnected ?? failure) : failure;
    } finally {
      this.unacked--;
    }
  }

  /**
   * After a refused or unanswered publish the local head may be wrong: refuse appends until every
   * publish in flight settled and the tail delivered everything the stream holds, then continue from
   * the stream's real head.
   */
  private resync(): void {
    this.resyncing ??= (async () => {
      while (this.state === 'open') {
        try {
          await Promise.allSettled([...this.inFlight]);
          if (this.unacked > 0 || this.queue.size > 0) continue;
          const info = await this.conn!.jsm.streams.info(this.options.stream);
          await this.whenCommitted(info.state.last_seq);
          this.nextOffset = Math.max(this.committedNext, info.state.last_seq);
          this.chain = undefined;
          return;
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      }
    })().finally(() => (this.resyncing = undefined));
  }

  private whenCommitted(next: number): Promise<void> {
    return this.waiters.wait(next, this.committedNext);
  }

  /** The tail delivered records (any node's): advance, tell subscribers, release appenders. */
  private commit(records: readonly LogRecord[]): void {
    if (records.length === 0) return;
    this.committedNext = records[records.length - 1].offset + 1;
    // Idle, this node follows the stream's head so its next append expects the right sequence.
    if (
      this.unacked === 0 &&
      this.queue.size === 0 &&
      !this.resyncing &&
      this.nextOffset < this.committedNext
    ) {
      this.nextOffset = this.committedNext;
    }
    for (const listener of [...this.listeners]) {
      try {
        listener(records);
      } catch (error) {
        this.options.logger?.warn(`commit listener threw: ${(error as Error).message}`);
      }
    }
    this.waiters.release(this.committedNext);
  }
}

import { ConsumerMessages, DeliverPolicy, JetStreamClient, JsMsg } from '@nats-io/jetstream';
import { offsetOf, seqOf, StreamRecord, streamRecordOf } from './stream-reader';
import { SubjectLayout } from './subjects';

/**
 * Pull requests of up to 1,000 records, topped up once 500 are outstanding: the library's default
 * (100, topped up every 25) sent a pull request, and so a socket write, per 25 records on every node,
 * about a tenth of a follower's CPU. Records are handed over as they arrive, not per 1,000: a pull
 * only bounds how many the server may send before the next one. Pull requests expire after 5 s
 * (heartbeats every 2.5 s): losing the server that holds this consumer is noticed in seconds, not the
 * default 30 s.
 */
const PULL = { max_messages: 1000, threshold_messages: 500, expires: 5000 };

/** A delivered record (see StreamRecord). */
export type TailRecord = StreamRecord;

export interface TailOptions {
  /** The first offset to deliver. */
  readonly from: number;
  readonly js: JetStreamClient;
  readonly stream: string;
  /** Where each record's scope is read from its subject. */
  readonly layout: SubjectLayout;
  /** Receives every record in stream order, batched per turn of the event loop. */
  readonly deliver: (records: readonly TailRecord[]) => void;
  readonly warn: (message: string) => void;
  /**
   * The consumer was replaced (by the watchdog, or by the client library after missed heartbeats):
   * what arrives next may come from a stream that changed meanwhile, so the log verifies it first.
   */
  readonly reset: (why: string) => void;
  /** How long creating a consumer may take before the attempt is abandoned and made again. */
  readonly openDeadlineMs: number;
}

/**
 * Follows the stream from a start offset with one ordered consumer and hands every record over in
 * stream order, batched per turn of the event loop. Records from every node arrive here, this node's
 * own included: this is how a node learns about writes made through the others.
 *
 * An ordered consumer recreates itself from the last sequence it delivered after a reconnect, so a
 * NATS outage leaves neither a gap nor a duplicate; `deliver` still drops any offset it has seen.
 * The client library does not always recover on its own, though: after a cluster server holding the
 * consumer is killed it can sit silent for good (seen with nats-server 2.9 and @nats-io/jetstream 3).
 * So the tail does not trust it: the log's watchdog (`takeProgress`, `restartIfBehind`) replaces a
 * consumer that stayed silent while the stream holds records past it.
 */
export class StreamTail {
  private messages: ConsumerMessages | undefined;
  private reopening: Promise<void> | undefined;
  /** Bumped by every reopen attempt: a consumer whose creation outlived its attempt is discarded. */
  private generation = 0;
  private stopped = false;
  private batch: TailRecord[] = [];
  private scheduled = false;
  private next: number;
  /**
   * The last message received: its metadata says how many stream records follow it. Read only when
   * asked (backlog), since parsing it for every record is measurable on a follower's fold.
   */
  private latest: JsMsg | undefined;
  /** Whether anything arrived since the last stall check. */
  private progressed = false;

  constructor(private readonly options: TailOptions) {
    this.next = options.from;
  }

  /** Opens the consumer; a failure here is a start-up failure. */
  async start(): Promise<void> {
    await this.open(this.generation);
  }

  /** The next offset this tail needs. */
  get position(): number {
    return this.next;
  }

  /** Records the stream holds that have not reached `deliver` yet. */
  get backlog(): number {
    return (this.latest?.info.pending ?? 0) + this.batch.length;
  }

  /** Whether anything arrived since the previous call: a tail that progressed is alive. */
  takeProgress(): boolean {
    const progressed = this.progressed;
    this.progressed = false;
    return progressed;
  }

  /**
   * The watchdog's verdict after a silent interval (`takeProgress` false): `streamNext` is the offset
   * the stream's next record will get. A silent consumer while the stream holds records this tail has
   * not delivered is stuck: replace it with a new one starting at the next offset needed.
   * Returns whether it did.
   */
  restartIfBehind(streamNext: number): boolean {
    if (this.stopped || this.progressed || streamNext <= this.next || this.reopening) return false;
    this.options.warn(`stream tail stalled at offset ${this.next} (stream head ${streamNext}); reopening it`);
    void this.reopen();
    return true;
  }

  stop(): void {
    this.stopped = true;
    this.messages?.stop();
    this.messages = undefined;
  }

  private async open(generation: number): Promise<void> {
    const consumer = await this.options.js.consumers.get(this.options.stream, {
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: seqOf(this.next),
    });
    const messages = await consumer.consume({
      ...PULL,
      // A callback, not the async iterator: no promise and generator step per record. A late record
      // of a consumer replaced meanwhile (its generation is stale) is not taken: it could skip `next`
      // past records the new one is sending.
      callback: (message) => {
        if (generation === this.generation && !this.stopped) this.take(message);
      },
    });
    if (this.stopped || generation !== this.generation) {
      messages.stop();
      return;
    }
    this.messages = messages;
    void this.follow(messages);
    void this.watch(messages);
  }

  /** The client library recreates an ordered consumer on its own after missed heartbeats: say so. */
  private async watch(messages: ConsumerMessages): Promise<void> {
    for await (const status of messages.status()) {
      if (this.messages !== messages) return;
      if (status.type === 'ordered_consumer_recreated') this.options.reset('stream tail consumer recreated');
    }
  }

  /**
   * Replaces the consumer, once at a time whoever asks (the watchdog, or `follow` when the library
   * gave up): every 500 ms until it succeeds, because a node must not stop following.
   */
  private reopen(): Promise<void> {
    this.reopening ??= (async () => {
      this.options.reset('stream tail reopened');
      const old = this.messages;
      this.messages = undefined;
      old?.stop();
      while (!this.stopped) {
        const generation = ++this.generation;
        try {
          await this.openWithin(generation);
          this.options.warn(`stream tail reopened at offset ${this.next}`);
          return;
        } catch (error) {
          this.options.warn(`stream tail cannot reopen yet: ${(error as Error).message}`);
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
      }
    })().finally(() => (this.reopening = undefined));
    return this.reopening;
  }

  /**
   * The client library retries a consumer it cannot create (no stream leader yet) in the background
   * without answering; an attempt that takes longer than the deadline is abandoned (its generation is
   * stale, so a late consumer is stopped on arrival) and the next one starts.
   */
  private async openWithin(generation: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no consumer within ${this.options.openDeadlineMs} ms`)),
        this.options.openDeadlineMs,
      );
    });
    try {
      await Promise.race([this.open(generation), deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Waits until this consumer ends; reopens when the library gave up on it (not stopped or replaced). */
  private async follow(messages: ConsumerMessages): Promise<void> {
    const error = await messages.closed();
    if (error) this.options.warn(`stream tail interrupted: ${error.message}`);
    if (this.messages === messages && !this.stopped) void this.reopen();
  }

  private take(message: JsMsg): void {
    this.latest = message;
    this.progressed = true;
    const offset = offsetOf(message.seq);
    if (offset < this.next) return;
    this.next = offset + 1;
    this.batch.push(streamRecordOf(message, this.options.layout));
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      const records = this.batch;
      this.batch = [];
      this.scheduled = false;
      this.options.deliver(records);
    });
  }
}

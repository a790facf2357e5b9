import { JetStreamManager } from '@nats-io/jetstream';
import { LogUnavailableError } from '../log.errors';
import { StreamFloor } from './stream-floor';
import { CheckVerdict, checksum, StreamGuard } from './stream-guard';
import { TailRecord } from './stream-tail';

export interface VerifierOptions {
  readonly jsm: JetStreamManager;
  readonly stream: string;
  readonly guard: StreamGuard;
  /** Told the stream's first sequence at every inspection (writers against a purged scope carry it). */
  readonly floor?: StreamFloor;
  /** Hands delivered records on to be applied (after a verification: everything held meanwhile). */
  readonly release: (records: readonly TailRecord[]) => void;
  readonly warn: (message: string) => void;
}

/** Pause between attempts to verify while the stream does not answer (no leader, no connection). */
const RETRY_MS = 250;

/**
 * Runs the guard's comparison against the live stream. After a disruption — a reconnect, a stream
 * leader election, the tail's consumer replaced — nothing is applied or written until the stream
 * showed it still holds the last record this node applied: records the tail delivers meanwhile are
 * held, appends are refused (503, readiness), so a rewound stream is found before anything is built
 * on it. Between disruptions the watchdog calls `inspect` every 2 s.
 *
 * A stream showing less than this node applied is not a fork by itself (ShortfallWindow: a replica
 * answers for a leaderless stream from its own, possibly older, store): the verification goes on,
 * asking again every 250 ms with writes and applying held, until the stream shows the record this
 * node applied (carry on), another record there (fork) or the window passed and a stream leader
 * still says so (fork). A shortfall the watchdog sees starts such a verification, so both paths wait
 * for the same confirmation.
 */
export class StreamVerifier {
  private running: Promise<void> | undefined;
  private pending: LogUnavailableError | undefined;
  private again = false;
  private held: TailRecord[] = [];
  private stopped = false;
  /** When the running shortfall was first seen (one warn line when it starts, one when it ends). */
  private shortfallSince: number | undefined;

  constructor(private readonly options: VerifierOptions) {}

  /** Why appends wait right now (a verification is running), or undefined. */
  get verifying(): LogUnavailableError | undefined {
    return this.pending;
  }

  /** Start-up: the stream's record at its head is what this node will have applied after replay. */
  async adoptHead(lastSeq: number): Promise<void> {
    if (lastSeq === 0) return;
    const stored = await this.options.jsm.streams.getMessage(this.options.stream, { seq: lastSeq });
    if (stored)
      this.options.guard.applied({ seq: lastSeq, subject: stored.subject, crc: checksum(stored.data) });
  }

  /** The tail's records: applied at once, or held while a verification runs. */
  deliver(records: readonly TailRecord[]): void {
    if (this.running) this.held.push(...records);
    else this.options.release(records);
  }

  /** Something happened after which the stream may not be the one this node applied. */
  disrupted(why: string): void {
    if (this.options.guard.fork) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.pending = new LogUnavailableError(`verifying the stream's history (${why})`);
    this.running = this.verify(why).finally(() => {
      this.running = undefined;
      this.pending = undefined;
      const held = this.held;
      this.held = [];
      if (!this.options.guard.fork && held.length > 0) this.options.release(held);
    });
  }

  /**
   * The watchdog's check: asks the stream, lets the guard compare; resolves with its last sequence.
   * A shortfall starts a verification (writes and applying held until it is confirmed or gone).
   */
  async inspect(): Promise<number> {
    const { verdict, lastSeq } = await this.examine();
    if (verdict === 'unconfirmed') this.disrupted('the stream showed less than this node applied');
    return lastSeq;
  }

  private async examine(): Promise<{ verdict: CheckVerdict; lastSeq: number }> {
    const { jsm, stream, guard } = this.options;
    const info = await jsm.streams.info(stream);
    this.options.floor?.saw(info.state.first_seq);
    const verdict = await guard.check({
      firstSeq: info.state.first_seq,
      lastSeq: info.state.last_seq,
      leaderless: info.cluster !== undefined && !info.cluster.leader,
      record: async (seq) => {
        const stored = await jsm.streams.getMessage(stream, { seq });
        return stored && { subject: stored.subject, data: stored.data };
      },
    });
    if (verdict === 'unconfirmed' && this.shortfallSince === undefined) {
      this.shortfallSince = Date.now();
      this.options.warn(
        `stream ${stream} shows last sequence ${info.state.last_seq} (answered with leader ` +
          `${info.cluster?.leader || 'none'}), not the record ${guard.reference?.seq} this node applied: ` +
          `writes and applying wait up to ${guard.confirmWindowMs} ms for it before that is a fork`,
      );
    } else if (verdict === 'consistent' && this.shortfallSince !== undefined) {
      this.options.warn(
        `stream ${stream} holds record ${guard.reference?.seq} this node applied after ` +
          `${Date.now() - this.shortfallSince} ms: carrying on`,
      );
      this.shortfallSince = undefined;
    }
    return { verdict, lastSeq: info.state.last_seq };
  }

  /** The log closed: a verification still running gives up. */
  stop(): void {
    this.stopped = true;
  }

  private async verify(why: string): Promise<void> {
    for (let attempt = 1; !this.options.guard.fork && !this.stopped; attempt++) {
      this.again = false;
      try {
        const { verdict } = await this.examine();
        if (verdict === 'unconfirmed') await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
        else if (!this.again) return;
      } catch (error) {
        if (attempt === 1)
          this.options.warn(`cannot verify the stream yet (${why}): ${(error as Error).message}`);
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    }
  }
}

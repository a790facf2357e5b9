import { AppendOptions, AppendResult, CommitListener, EventLog, LogRecord } from '../log/event-log';
import { CommitObserver } from '../log/file/commit-observer';
import { LogInstrumentation } from '../log/log-instrumentation';
import { nowNanos } from './span';
import { ActiveSpan, SpanRecorder } from './span-recorder';

/** One traced append: its span, its parent (the lane) and the offsets its records received. */
interface TracedAppend {
  readonly span: ActiveSpan;
  readonly parent: ActiveSpan;
  /** Its offsets: known at the call on a single-writer log, at the acknowledgement on NATS (-1 until). */
  first: number;
  last: number;
  /** Records of this append the group commit has not written yet (file log). */
  unwritten: number;
  synced: boolean;
  /** When the projections began applying its records (the first batch holding one). */
  applyStart?: bigint;
}

function forget(list: TracedAppend[], traced: TracedAppend): void {
  const at = list.indexOf(traced);
  if (at >= 0) list.splice(at, 1);
}

/** Appends kept for their apply span at most; older ones (never applied here) are forgotten. */
const MAX_TRACKED = 4096;

/**
 * The log's spans, by wrapping it (installed only when tracing is on; see LogInstrumentation): an
 * append made inside a traced request becomes a `log append` span (`nats publish` on the nats
 * backend: publish, acknowledgement and the record's way back through the tail), with a `log fsync`
 * child timed by the group commit, and an `apply` span beside it, timed around the projections'
 * commit listener. Appends outside a traced request (the reaper, an unsampled request) pass straight
 * through.
 */
export class TracedLog implements LogInstrumentation {
  /** Traced appends in offset order: the group commit writes and syncs them first in, first out. */
  private readonly inFlight: TracedAppend[] = [];
  /** Traced appends whose records have not been applied yet, oldest first. */
  private readonly unapplied: TracedAppend[] = [];

  constructor(private readonly recorder: SpanRecorder) {}

  commits(observer: CommitObserver): CommitObserver {
    return {
      batchWritten: (records, seconds) => {
        observer.batchWritten(records, seconds);
        this.written(records);
      },
      synced: (seconds) => {
        observer.synced(seconds);
        this.synced(seconds);
      },
    };
  }

  wrap(log: EventLog, backend: 'file' | 'nats'): EventLog {
    const name = backend === 'nats' ? 'nats publish' : 'log append';
    const append = (payloads: readonly Buffer[], options?: AppendOptions): Promise<AppendResult> => {
      const parent = this.recorder.current.getStore();
      if (parent === undefined) return log.append(payloads, options);
      const first = log.head?.();
      const traced: TracedAppend = {
        span: this.recorder.startChild(parent, name, {
          'log.records': payloads.length,
          ...(first !== undefined && { 'log.first_offset': first }),
        }),
        parent,
        first: first ?? -1,
        last: first === undefined ? -1 : first + payloads.length - 1,
        unwritten: payloads.length,
        synced: false,
      };
      this.inFlight.push(traced);
      this.unapplied.push(traced);
      if (this.unapplied.length > MAX_TRACKED) this.unapplied.shift();
      const result = log.append(payloads, options);
      const settle = (error?: string): void => {
        traced.span.end(error);
        forget(this.inFlight, traced);
        // A refused append's offsets go to other records (another node's, a retry): no apply of its own.
        if (error !== undefined) forget(this.unapplied, traced);
      };
      result.then(
        (stored) => {
          if (first === undefined) [traced.first, traced.last] = [stored.first, stored.next - 1];
          settle();
        },
        (error: unknown) => settle(error instanceof Error ? error.message : String(error)),
      );
      return result;
    };
    const subscribe = (listener: CommitListener): (() => void) =>
      log.subscribe((records) => {
        if (this.unapplied.length === 0 || records.length === 0) return listener(records);
        const start = nowNanos();
        try {
          listener(records);
        } finally {
          this.applied(records, { start, end: nowNanos() });
        }
      });
    // Everything else goes to the log itself (bound once: `this` stays the log for its own methods),
    // whatever methods the port gains.
    const bound = new Map<PropertyKey, unknown>([
      ['append', append],
      ['subscribe', subscribe],
    ]);
    return new Proxy(log, {
      get: (target, property) => {
        if (!bound.has(property)) {
          const value: unknown = Reflect.get(target, property, target);
          bound.set(property, typeof value === 'function' ? value.bind(target) : value);
        }
        return bound.get(property);
      },
    });
  }

  /** The group commit wrote `records` records: the oldest in-flight appends, in order. */
  private written(records: number): void {
    for (const traced of this.inFlight) {
      if (records <= 0) break;
      const taken = Math.min(records, traced.unwritten);
      traced.unwritten -= taken;
      records -= taken;
    }
  }

  /** One fsync covered every written, unsynced append: each gets a `log fsync` span. */
  private synced(seconds: number): void {
    const end = nowNanos();
    const start = end - BigInt(Math.round(seconds * 1e9));
    for (const traced of this.inFlight) {
      if (traced.unwritten > 0 || traced.synced) continue;
      traced.synced = true;
      this.recorder.recordChild(traced.span, { name: 'log fsync', start, end });
    }
  }

  /**
   * The projections applied `records`. A traced append gets one `apply` span, from the first batch
   * that held any of its records to the end of the batch that held its last one: the NATS tail may
   * deliver one append's records in several batches.
   */
  private applied(records: readonly LogRecord[], times: { start: bigint; end: bigint }): void {
    const from = records[0].offset;
    const to = records[records.length - 1].offset;
    let kept = 0;
    for (const traced of this.unapplied) {
      if (traced.first <= to && traced.last >= from) traced.applyStart ??= times.start;
      if (traced.last <= to && traced.applyStart !== undefined) {
        this.recorder.recordChild(traced.parent, {
          name: 'apply',
          start: traced.applyStart,
          end: times.end,
          attributes: { 'log.records': traced.last - traced.first + 1 },
        });
      } else if (traced.last > to || traced.first < 0) {
        this.unapplied[kept++] = traced;
      }
    }
    this.unapplied.length = kept;
  }
}

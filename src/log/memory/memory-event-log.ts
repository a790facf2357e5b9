import { AppendOptions, AppendResult, CommitListener, EventLog, LogRecord, ReadOptions } from '../event-log';
import { LogUnavailableError } from '../log.errors';

interface PendingAppend {
  readonly payloads: readonly Buffer[];
  readonly first: number;
  readonly resolve: (result: AppendResult) => void;
}

/**
 * Array-backed EventLog for unit tests. Nothing survives the instance; otherwise it keeps the port's
 * invariants exactly like the file log, including the asynchronous commit: offsets are assigned when
 * `append` is called, everything appended during one turn of the event loop commits together on the
 * next `setImmediate`, subscribers see the batch in offset order, and only then do the appends resolve.
 * So a test cannot come to depend on a commit that happens synchronously.
 *
 * Payloads are copied on append; `read` and subscribers hand out the stored copies (do not mutate them).
 */
export class MemoryEventLog implements EventLog {
  private records: LogRecord[] = [];
  /** Offset of records[0]; moves forward with retention. */
  private first = 0;
  private nextOffset = 0;
  private pending: PendingAppend[] = [];
  private flushing: Promise<void> | undefined;
  private state: 'new' | 'open' | 'closed' = 'new';
  private readonly listeners = new Set<CommitListener>();

  async open(): Promise<void> {
    if (this.state !== 'new') throw new Error('MemoryEventLog.open() may be called only once');
    this.state = 'open';
  }

  head(): number {
    return this.nextOffset;
  }

  committedHead(): number {
    return this.first + this.records.length;
  }

  firstOffset(): number {
    return this.first;
  }

  /** One writer: keys and `readThrough` need no check (see the port); `onFailed` runs with a refusal. */
  append(payloads: readonly Buffer[], options: AppendOptions = {}): Promise<AppendResult> {
    if (this.state !== 'open') {
      options.onFailed?.();
      return Promise.reject(new LogUnavailableError(this.state === 'new' ? 'not open' : 'closed'));
    }
    const first = this.nextOffset;
    this.nextOffset += payloads.length;
    const copies = payloads.map((payload) => Buffer.from(payload));
    return new Promise((resolve) => {
      this.pending.push({ payloads: copies, first, resolve });
      this.flushing ??= new Promise((done) => setImmediate(() => done(this.commit())));
    });
  }

  read(from: number, options: ReadOptions = {}): AsyncIterable<LogRecord> {
    const committed = this.committedHead();
    const until = Math.min(options.until ?? committed, committed);
    const start = Math.max(from, this.first);
    const slice = start < until ? this.records.slice(start - this.first, until - this.first) : [];
    return (async function* () {
      yield* slice;
    })();
  }

  subscribe(listener: CommitListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Drops every committed record before `offset` (the memory log's retention unit is one record). */
  /** Nothing to make durable in memory; waits for pending appends to commit. */
  async sync(): Promise<void> {
    await this.flushing;
  }

  async truncateBefore(offset: number): Promise<void> {
    const drop = Math.max(0, Math.min(offset, this.committedHead()) - this.first);
    this.records.splice(0, drop);
    this.first += drop;
  }

  /** Commits what is pending, then refuses appends. Idempotent. */
  async close(): Promise<void> {
    this.state = 'closed';
    await this.flushing;
  }

  /** Commits every pending append as one batch, in offset order. */
  private commit(): void {
    const batch = this.pending;
    this.pending = [];
    this.flushing = undefined;
    const committed: LogRecord[] = [];
    for (const entry of batch) {
      entry.payloads.forEach((payload, i) => committed.push({ offset: entry.first + i, payload }));
    }
    for (const record of committed) this.records.push(record);
    const errors: unknown[] = [];
    if (committed.length > 0) {
      for (const listener of [...this.listeners]) {
        try {
          listener(committed);
        } catch (error) {
          errors.push(error);
        }
      }
    }
    for (const entry of batch)
      entry.resolve({ first: entry.first, next: entry.first + entry.payloads.length });
    // The commit stands (as in the file log); a listener's bug surfaces as an uncaught error in the test.
    for (const error of errors) {
      queueMicrotask(() => {
        throw error;
      });
    }
  }
}

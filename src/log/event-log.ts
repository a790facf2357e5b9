/**
 * The event log port: the one source of truth of the service. Every accepted write is appended here
 * as an opaque payload (the event codec lives in src/events); projections fold what the log returns.
 *
 * Offsets are 0-based, contiguous and never reused. `head()` is the offset the next append receives.
 * Invariants every backend keeps:
 * - appends are ordered: the records of two `append` calls made one after the other (without awaiting)
 *   get increasing offsets in call order, and are committed in that order;
 * - `append` resolves only once the records are as durable as the backend's fsync policy promises
 *   (`always`: after the fsync that covers them);
 * - `read` and subscribers see committed records only, in offset order, each exactly once;
 * - a failed append (I/O error) poisons the log: every later append rejects with LogUnavailableError
 *   until the process restarts and recovers from disk (no "retry the fsync" — see docs/architecture.md).
 * Across a crash, an append that was never acknowledged may be lost, kept whole, or (when it carried
 * several payloads) kept as a prefix of its records: recovery keeps the longest valid prefix of the log.
 */
export interface LogRecord {
  readonly offset: number;
  readonly payload: Buffer;
}

export interface AppendResult {
  /** Offset of the first appended record. */
  readonly first: number;
  /** Offset after the last appended record (the new head). */
  readonly next: number;
}

export interface AppendOptions {
  /** Optimistic concurrency: append only if the log's head is exactly this offset. */
  readonly expectedHead?: number;
}

export interface ReadOptions {
  /** Stop before this offset (exclusive). Defaults to the committed head at the time of the call. */
  readonly until?: number;
}

export type CommitListener = (records: readonly LogRecord[]) => void;

export interface EventLog {
  /** Opens the log, recovering from a torn or corrupt tail. Must be called once before any other call. */
  open(): Promise<void>;
  /** The offset the next append will receive (includes appends not yet committed). */
  head(): number;
  /** Offset after the last committed record. */
  committedHead(): number;
  /** Oldest offset still retained (0 unless retention removed older segments). */
  firstOffset(): number;
  /**
   * Appends payloads as consecutive records. Offsets are assigned in call order; the promise resolves
   * once they are committed. Rejects with ExpectedHeadMismatchError (no records written) when
   * `expectedHead` is given and differs from `head()`.
   */
  append(payloads: readonly Buffer[], options?: AppendOptions): Promise<AppendResult>;
  /**
   * Committed records from `from` (inclusive) in offset order. The bound is fixed when `read` is called:
   * records committed later are not included. `from` below `firstOffset()` starts at `firstOffset()`
   * (retention removed the rest); `until` above the committed head is capped at it.
   */
  read(from: number, options?: ReadOptions): AsyncIterable<LogRecord>;
  /**
   * Called with every batch of records committed after subscribing, in offset order. Returns an
   * unsubscribe function. A listener that throws does not undo the commit. Whether listeners run before
   * the covered appends resolve is backend-specific: do not rely on it.
   */
  subscribe(listener: CommitListener): () => void;
  /**
   * Makes every committed record durable whatever the fsync policy (checkpoints call it before they
   * name an offset, so `interval`/`none` can never leave a checkpoint ahead of the log after a crash).
   */
  sync(): Promise<void>;
  /**
   * Why appends are refused right now (a poisoned log), for /healthz; undefined while writable.
   * Optional: a backend without a sticky failure state need not implement it.
   */
  writeFault?(): Error | undefined;
  /**
   * Resolves once an append may succeed again after one was refused with ExpectedHeadMismatchError
   * because another writer moved the shared log (the nats backend re-synchronises its head from the
   * stream). Optional: a log only this process writes never needs it.
   */
  caughtUp?(): Promise<void>;
  /**
   * Records the shared log holds that this process has not received yet (the nats backend: other
   * nodes' writes still on their way), for /healthz. Optional: 0 for a log only this process writes.
   */
  backlog?(): number;
  /** Retention: drops whole segments (or the backend's unit) that end at or before `offset`. */
  truncateBefore(offset: number): Promise<void>;
  /**
   * Commits anything pending, syncs it regardless of the fsync policy, and releases files/connections.
   * Idempotent. Appends made after `close()` was called reject with LogUnavailableError.
   */
  close(): Promise<void>;
}

import { SnapshotStore } from './snapshot-store';

/**
 * The event log port: the one source of truth of the service. Every accepted write is appended here
 * as an opaque payload (the event codec lives in src/events); projections fold what the log returns.
 *
 * Offsets are 0-based, contiguous and never reused. Invariants every backend keeps:
 * - the records of one `append` are stored whole or not at all, at consecutive offsets, in order;
 * - two appends from one process whose records share a scope (see LogScope) are stored in call
 *   order; a log only this process writes (file, memory) stores every append in call order;
 * - `append` resolves only once the records are as durable as the backend promises (file,
 *   `always`: after the fsync that covers them; nats: acknowledged by the stream's replicas);
 * - `read` and subscribers see committed records only, in offset order, each exactly once (nats:
 *   "committed" means delivered back by the tail, which may come after the append resolved);
 * - a failed append (I/O error) poisons the file log: every later append rejects with
 *   LogUnavailableError until the process restarts and recovers from disk (docs/architecture.md).
 * Across a crash, an append that was never acknowledged may be lost, kept whole, or (file log, when it
 * carried several payloads) kept as a prefix of its records: recovery keeps the longest valid prefix.
 */
export interface LogRecord {
  readonly offset: number;
  readonly payload: Buffer;
  /**
   * The next record belongs to the same append (a batch stored atomically): a cut between them would
   * split it. Set by the file log (FORMAT.md, Batches); absent elsewhere and in logs written before it.
   */
  readonly continues?: boolean;
  /**
   * The scope the record was stored under (a shared log: its subject's scope id, see LogScope);
   * absent on a log only this process writes, which keeps no scopes.
   */
  readonly scope?: string;
}

/**
 * The last record of each scope among the records below `next`, as the projection runner applied
 * them: restored from the checkpoint (or shared snapshot) it started from and folded with every record
 * it applied since (ScopeHeadsFold). A shared log checks each record's stored precondition against it.
 */
export interface AppliedScopeHeads {
  /** Every record below this offset is folded in, none at or above it. */
  readonly next: number;
  /** Offset of the last record of `scope` below `next`; undefined when none is known. */
  lastOffset(scope: string): number | undefined;
}

export interface AppendResult {
  /** Offset of the first appended record. */
  readonly first: number;
  /** Offset after the last appended record. */
  readonly next: number;
}

/**
 * What a record is about, for a log several processes write (the nats backend): the unit of
 * optimistic concurrency — every record of a room (its ownership notes included) or one note.
 * Tokens are free text (a backend encodes them); every scope of one kind has the same number of
 * tokens, so no scope is a prefix of another.
 */
export type LogScope = readonly string[];

export interface AppendOptions {
  /**
   * The scope of each payload. A shared log stores the records only if, in each of their scopes, the
   * last record is one the caller decided against: below `readThrough`, or one of this process's own
   * earlier appends that was not refused. Otherwise nothing is stored and the append rejects with
   * LogConflictError. Records without a scope share one. A log only this process writes ignores
   * scopes: every decision there is made against everything before it.
   */
  readonly scopes?: readonly LogScope[];
  /** The caller decided against every record below this offset (its read models applied them). */
  readonly readThrough?: number;
  /**
   * Runs synchronously, before the promise rejects and before any other decision can run, when the
   * records will not be stored or their fate is unknown (a timeout): the caller forgets the state it
   * recorded for them, so no later decision builds on it. Appends this process chained behind them
   * (same scope) fail too, each with its own call.
   */
  readonly onFailed?: () => void;
}

export interface ReadOptions {
  /** Stop before this offset (exclusive). Defaults to the committed head at the time of the call. */
  readonly until?: number;
}

export type CommitListener = (records: readonly LogRecord[]) => void;

export interface EventLog {
  /** Opens the log, recovering from a torn or corrupt tail. Must be called once before any other call. */
  open(): Promise<void>;
  /** Offset after the last committed record (what `read` and subscribers have seen). */
  committedHead(): number;
  /**
   * A log only this process writes: the offset the next append receives (appends not yet committed
   * included). Absent on a shared log, where an offset is known only once the append is stored.
   */
  head?(): number;
  /** Oldest offset still retained (0 unless retention removed older segments). */
  firstOffset(): number;
  /**
   * Appends payloads as consecutive records, atomically. Resolves with their offsets once they are
   * stored; rejects with LogConflictError (nothing stored) when another writer moved one of their
   * scopes first, or LogUnavailableError when the log cannot take writes.
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
   * Why appends are refused for good (until an operator acts and the process restarts): a log
   * poisoned by an I/O error, a shared stream whose history is not the one this process applied.
   * Liveness and readiness both report it. Undefined while writable.
   */
  writeFault?(): Error | undefined;
  /**
   * Why appends are refused right now for a reason that passes without a restart (the nats backend:
   * the connection to NATS is lost, the stream is being verified after a reconnect). Readiness
   * reports it, liveness does not: restarting would not bring NATS back.
   */
  unavailable?(): Error | undefined;
  /**
   * How long one write may wait on this log before it is answered 503 (CHAT_NATS_TIMEOUT_MS), all
   * retries after conflicts included; undefined: no deadline (a local disk answers or poisons).
   */
  writeDeadlineMs?(): number | undefined;
  /**
   * Records the shared log holds that this process has not received yet (the nats backend: other
   * nodes' writes still on their way), for /healthz. Optional: 0 for a log only this process writes.
   */
  backlog?(): number;
  /**
   * Where shared snapshots of the read models live (the nats backend: an object store beside the
   * stream); absent or undefined: this log has none, every node keeps its own checkpoints.
   */
  snapshotStore?(): SnapshotStore | undefined;
  /**
   * A log that checks each stored record's precondition (nats) reads a scope's previous record from
   * the runner's heads, so a node restarted from a checkpoint or restored from a snapshot checks a
   * scope's first record after that offset as a node that replayed the whole log does. Absent: the
   * log checks nothing of the kind.
   */
  useAppliedScopeHeads?(heads: AppliedScopeHeads): void;
  /**
   * Drops the records below `offset` when this log's retention lets snapshots bound it (nats:
   * CHAT_NATS_RETENTION=snapshot; `offset` is the oldest kept shared snapshot's). A no-op otherwise.
   */
  purgeBefore?(offset: number): Promise<void>;
  /**
   * Writes of the archive `purgeBefore` makes first (nats: CHAT_NATS_ARCHIVE=object) that failed since
   * open; each failure left the records in place. Absent: this log keeps no archive.
   */
  archiveFailures?(): number;
  /** Retention: drops whole segments (or the backend's unit) that end at or before `offset`. */
  truncateBefore(offset: number): Promise<void>;
  /**
   * Commits anything pending, syncs it regardless of the fsync policy, and releases files/connections.
   * Idempotent. Appends made after `close()` was called reject with LogUnavailableError.
   */
  close(): Promise<void>;
}

/**
 * Receives the timing of the log's I/O steps: a port of the log, filled by whoever measures them (the
 * metrics module provides it under COMMIT_OBSERVER; without one the log ignores its timings). Called
 * on the committer's path: keep it cheap.
 */
export interface CommitObserver {
  /** One batch written: how many records, and the seconds the write took. */
  batchWritten(records: number, seconds: number): void;
  /** One fdatasync done, and the seconds it took. */
  synced(seconds: number): void;
}

export const IGNORE_COMMITS: CommitObserver = { batchWritten: () => undefined, synced: () => undefined };

/** Injection token of the CommitObserver the log module hands to the file log (optional). */
export const COMMIT_OBSERVER = Symbol('COMMIT_OBSERVER');

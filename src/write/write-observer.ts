/**
 * What the write coordinators report to the metrics (a port: src/write imports no feature; the
 * metrics module fills it, see COMMIT_OBSERVER for the same arrangement in the log).
 */
export interface WriteObserver {
  /** A write was decided again after another node's write to the same room or note. */
  conflictRetried(): void;
}

export const WRITE_OBSERVER = Symbol('WRITE_OBSERVER');

export const IGNORE_WRITES: WriteObserver = { conflictRetried: () => undefined };

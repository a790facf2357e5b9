/** Receives the timing of the log's I/O steps (metrics); called on the committer's path: keep it cheap. */
export interface CommitObserver {
  /** One batch written: how many records, and the seconds the write took. */
  batchWritten(records: number, seconds: number): void;
  /** One fdatasync done, and the seconds it took. */
  synced(seconds: number): void;
}

export const IGNORE_COMMITS: CommitObserver = { batchWritten: () => undefined, synced: () => undefined };

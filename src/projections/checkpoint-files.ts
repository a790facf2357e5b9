/**
 * The files a checkpoint covers besides its own: the port a feature implements when its projection
 * keeps state in files (rooms: the ring files). The projections layer calls it and knows nothing
 * else about them.
 *
 * Names are the keys of a checkpoint's `files` map (what `Projection.referencedFiles` returns), so one
 * feature owns them all: the registry accepts a single implementation.
 */
export interface CheckpointFiles {
  /** Every such file now on disk. */
  list(): string[];
  /** Where it is on disk (a snapshot reads it from there, a restore moves it there). */
  path(file: string): string;
  /** Its length in bytes, or -1 when it does not exist. */
  size(file: string): number;
  /** Cuts it back to a length a checkpoint recorded (start-up recovery). */
  truncate(file: string, length: number): void;
  /** Deletes it (no kept checkpoint and no live projection names it). */
  delete(file: string): void;
  /** Makes every file written since the last call durable, names included (before a checkpoint). */
  syncDirty(): Promise<void>;
  /** Releases open handles (shutdown, after the final checkpoint). */
  close(): void;
}

/** What checkpoints cover when no feature keeps files: nothing. */
export const NO_CHECKPOINT_FILES: CheckpointFiles = {
  list: () => [],
  path: (file) => file,
  size: () => -1,
  truncate: () => undefined,
  delete: () => undefined,
  syncDirty: () => Promise.resolve(),
  close: () => undefined,
};

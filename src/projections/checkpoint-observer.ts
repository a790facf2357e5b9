/**
 * Receives the duration of every checkpoint written: a port of the projections layer, filled by the
 * metrics module under CHECKPOINT_OBSERVER. Optional: the replay tool runs without one.
 */
export interface CheckpointObserver {
  /** One checkpoint written (log sync, file sync, snapshot file), and the seconds it took. */
  written(seconds: number): void;
}

/** Injection token of the CheckpointObserver (optional). */
export const CHECKPOINT_OBSERVER = Symbol('CHECKPOINT_OBSERVER');

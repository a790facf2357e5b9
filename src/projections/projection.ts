import { ChatEvent } from '../events/chat-event';

/**
 * A read model folded from the log. `apply` is called once per event in log order; it must be
 * deterministic (same state + same event → same state and the same files) because recovery and the
 * replay tool rebuild projections by applying the log again from a checkpoint.
 */
export interface Projection {
  readonly name: string;
  apply(event: ChatEvent, offset: number): void;
  /** JSON-serialisable state saved in checkpoints. */
  snapshot(): unknown;
  /** Replaces the state with a checkpoint's snapshot. */
  restore(state: unknown): void;
  /** Files the projection keeps outside the checkpoint, with the length a checkpoint may trust. */
  referencedFiles?(): Map<string, number>;
}

/** Injection token: every projection, in the order they are applied. */
export const PROJECTIONS = Symbol('PROJECTIONS');

import { availableParallelism } from 'node:os';

/**
 * Default size of the Ed25519 verify pool: one thread per core beyond the event loop's, at least
 * one (a 2-core machine still moves verification off the event loop) and at most four (past that a
 * signed write is bound by the event loop's own per-request work, not by verification).
 */
export function defaultVerifyWorkers(): number {
  return Math.min(4, Math.max(1, availableParallelism() - 1));
}

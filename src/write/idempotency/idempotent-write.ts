import { IdempotencyKeyReusedError } from './idempotency-errors';

/** A keyed write already decided: its content fingerprint, and whether it is still being applied. */
export interface PriorWrite<E> {
  readonly entry: E;
  readonly fingerprint: string;
  /** Set while it is decided but not yet applied (see PendingKeys): `done` resolves when it leaves. */
  readonly pending: { readonly done: Promise<void> } | null;
}

export interface IdempotentWrite<E, T> {
  readonly key: string | undefined;
  /** Synchronous: the write this key (in its scope) already names, or null. */
  readonly prior: () => PriorWrite<E> | null;
  readonly fingerprint: string;
  /** Names the original write in a refusal, e.g. `/r/lobby seq 41 (2026-…)`. */
  readonly describe: (entry: E) => string;
  /** The answer the original write gets again. */
  readonly replay: (entry: E) => T;
  /** The lane's own checks and append: run when the key names no write. */
  readonly write: () => Promise<T>;
  /**
   * Resolves once the read models applied one more record, rejects if applying failed: a wait for a
   * pending first attempt is woken by it too, so a projection failure ends the wait with its 503.
   */
  readonly progress: () => Promise<void>;
}

/**
 * The idempotency step every write lane runs first, inside its synchronous decide step (issue 28):
 * - no key, or a key that names no write: the lane runs as it always did, and its append carries the
 *   key; lookup and append are one synchronous step, so two retries on this node cannot both append,
 *   and on a shared log the append's precondition refuses a write decided without seeing another
 *   node's (ConflictRetry then runs this step again, and it finds the other node's write);
 * - the key names a write with the same content: that write's answer, nothing appended;
 * - with other content: 422 naming the original;
 * - a write still being applied (a retry overtaking its first attempt): wait until it is, then look
 *   again — if that append was refused, the key names nothing and this retry writes.
 * A write that was refused is never logged, so its key stays free.
 */
export async function idempotentWrite<E, T>(write: IdempotentWrite<E, T>): Promise<T> {
  if (write.key === undefined) return write.write();
  for (;;) {
    const prior = write.prior();
    if (prior === null) return write.write();
    if (prior.fingerprint !== write.fingerprint) {
      throw new IdempotencyKeyReusedError(write.key, write.describe(prior.entry));
    }
    if (prior.pending === null) return write.replay(prior.entry);
    // Wait until it left the pending keys — settled (applied: the index shows it) or refused by the
    // log (forgotten) — or the read models moved on (then look again). Never a wait that can resolve
    // without anything happening: a loop of already-resolved promises would starve the macrotask
    // that settles or refuses the first attempt. Applying failed: the wait rejects with its 503.
    await Promise.race([prior.pending.done, write.progress()]);
  }
}

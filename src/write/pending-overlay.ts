/**
 * Write-side state that the read model does not show yet: for each key, the state the newest
 * appended-but-not-applied write leads to, and the ticket of that write (EventWriter numbers writes
 * in the order they are decided; a log offset is only known once the log stored them).
 *
 * Decisions read `get` before the read model; EventWriter records here synchronously with the
 * decision, settles a key once the projections applied its newest write, and discards a write's
 * entries when the log refuses it. A later write to the same key moves the ticket forward, so
 * settling or discarding an older write leaves the newer state in place.
 */
export class PendingOverlay<S> {
  private readonly pending = new Map<string, { readonly state: S; readonly ticket: number }>();

  /** The pending entry for `key` (its `state` may itself be "absent", e.g. null for a note). */
  get(key: string): { readonly state: S } | undefined {
    return this.pending.get(key);
  }

  has(key: string): boolean {
    return this.pending.has(key);
  }

  set(key: string, state: S, ticket: number): void {
    this.pending.set(key, { state, ticket });
  }

  /** Every pending entry (capacity counts compare them with the read model). */
  *entries(): IterableIterator<[string, S]> {
    for (const [key, { state }] of this.pending) yield [key, state];
  }

  /** The write `ticket` is in the read model: `key` no longer needs what it or an older write left. */
  settle(key: string, ticket: number): void {
    const entry = this.pending.get(key);
    if (entry !== undefined && entry.ticket <= ticket) this.pending.delete(key);
  }

  /**
   * The write `ticket` was refused: forget what it left at `key`, so the next decision reads the
   * read model again. A newer write to the same key was decided against it and is refused with it
   * (a shared log chains writes to one scope), each discarding its own entries.
   */
  discard(key: string, ticket: number): void {
    if (this.pending.get(key)?.ticket === ticket) this.pending.delete(key);
  }
}

/**
 * Write-side state that the read model does not show yet: for each key, the state the newest
 * appended-but-not-applied event leads to, and the offset of that event.
 *
 * Decisions read `get` before the read model; EventWriter records here synchronously right after
 * issuing the append (no await between decide and record), forgets from an offset when an append is
 * refused, and settles a key once the projections applied its newest event. A later write to the
 * same key moves `untilOffset` forward, so settling an older offset leaves the newer state in place.
 */
export class PendingOverlay<S> {
  private readonly pending = new Map<string, { readonly state: S; readonly untilOffset: number }>();

  /** The pending entry for `key` (its `state` may itself be "absent", e.g. null for a note). */
  get(key: string): { readonly state: S } | undefined {
    return this.pending.get(key);
  }

  has(key: string): boolean {
    return this.pending.has(key);
  }

  set(key: string, state: S, untilOffset: number): void {
    this.pending.set(key, { state, untilOffset });
  }

  /** Every pending entry (capacity counts compare them with the read model). */
  *entries(): IterableIterator<[string, S]> {
    for (const [key, { state }] of this.pending) yield [key, state];
  }

  /** The read model applied everything up to `offset`: `key` no longer needs the overlay. */
  settle(key: string, offset: number): void {
    const entry = this.pending.get(key);
    if (entry !== undefined && entry.untilOffset <= offset) this.pending.delete(key);
  }

  /**
   * An append from `offset` on was refused (another node wrote first, or the log failed): forget
   * what it and any later append recorded, so the next decision reads the read model again. The log
   * chains later appends on the refused one, so they are refused too.
   */
  discardFrom(offset: number): void {
    for (const [key, entry] of this.pending) if (entry.untilOffset >= offset) this.pending.delete(key);
  }
}

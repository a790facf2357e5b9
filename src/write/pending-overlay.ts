interface Pending<S> {
  readonly state: S;
  readonly ticket: number;
}

/**
 * Write-side state that the read model does not show yet: for each key, the states that the
 * appended-but-not-applied writes to it lead to, oldest first, each with the ticket of its write
 * (EventWriter numbers writes in the order they are decided; a log offset is only known once the log
 * stored them).
 *
 * Decisions read `get` (the newest state) before the read model; EventWriter records here
 * synchronously with the decision, settles a key once the projections applied a write, and discards
 * a write's state when the log refuses it. Every pending state is kept, not just the newest: a write
 * refused at once (NATS unreachable) while an older one to the same key is stored but not delivered
 * back yet must leave that older state in place, or the next decision would read the stale read
 * model and reuse a seq the stream already holds (found by the cluster fault test).
 */
export class PendingOverlay<S> {
  private readonly pending = new Map<string, Array<Pending<S>>>();

  /** The newest pending entry for `key` (its `state` may itself be "absent", e.g. null for a note). */
  get(key: string): { readonly state: S } | undefined {
    const states = this.pending.get(key);
    return states?.[states.length - 1];
  }

  has(key: string): boolean {
    return this.pending.has(key);
  }

  /** Records the state write `ticket` leads `key` to (tickets of one key only ever grow). */
  set(key: string, state: S, ticket: number): void {
    const states = this.pending.get(key);
    if (states === undefined) this.pending.set(key, [{ state, ticket }]);
    else states.push({ state, ticket });
  }

  /** Every key's newest pending state (capacity counts compare them with the read model). */
  *entries(): IterableIterator<[string, S]> {
    for (const [key, states] of this.pending) yield [key, states[states.length - 1].state];
  }

  /** The write `ticket` is in the read model: so is every older write to `key` (one scope, one order). */
  settle(key: string, ticket: number): void {
    const states = this.pending.get(key);
    if (states === undefined) return;
    let applied = 0;
    while (applied < states.length && states[applied].ticket <= ticket) applied++;
    if (applied === states.length) this.pending.delete(key);
    else states.splice(0, applied);
  }

  /**
   * The write `ticket` was refused: forget the state it left at `key`, so the next decision reads
   * the write before it (or the read model). Newer writes to the same key were decided against it
   * and are refused with it (a shared log chains writes to one scope), each discarding its own state.
   */
  discard(key: string, ticket: number): void {
    const states = this.pending.get(key);
    const at = states?.findIndex((entry) => entry.ticket === ticket) ?? -1;
    if (at < 0) return;
    if (states!.length === 1) this.pending.delete(key);
    else states!.splice(at, 1);
  }
}

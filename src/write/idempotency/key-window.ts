/** Every remembered key carries the time (µs) of the write it belongs to. */
export interface KeyedWrite {
  readonly at: number;
}

/**
 * The idempotency keys of one kind of write, bounded in time and number: a key is answered for
 * `windowSeconds` after its write, and at most `maxKeys` are held (the oldest goes first). A map in
 * write order, so both bounds drop from the front.
 *
 * Deterministic: what is held depends only on the writes applied (their order and times), never on
 * the clock, so a replay of the log rebuilds exactly the checkpointed state; only `get` looks at the
 * clock, to stop answering a key once its window passed.
 */
export class KeyWindow<E extends KeyedWrite> {
  private readonly keys = new Map<string, E>();

  constructor(
    private readonly windowSeconds: number,
    private readonly maxKeys: number,
  ) {}

  /** The write `id` names, while its window lasts at `nowMicros`. */
  get(id: string, nowMicros: number): E | undefined {
    const entry = this.keys.get(id);
    return entry !== undefined && nowMicros - entry.at <= this.windowSeconds * 1e6 ? entry : undefined;
  }

  put(id: string, entry: E): void {
    this.keys.delete(id);
    this.keys.set(id, entry);
    const horizon = entry.at - this.windowSeconds * 1e6;
    for (const [oldest, held] of this.keys) {
      if (this.keys.size <= this.maxKeys && held.at >= horizon) break;
      this.keys.delete(oldest);
    }
  }

  get size(): number {
    return this.keys.size;
  }

  /** Checkpointed form: `[id, entry]` rows in write order. */
  toRows(): Array<[string, E]> {
    return [...this.keys];
  }

  restore(rows: ReadonlyArray<readonly [string, E]>): void {
    this.keys.clear();
    for (const [id, entry] of rows) this.keys.set(id, entry);
  }
}

export interface LruLimits {
  /** Most entries held (default: no count limit). */
  readonly maxEntries?: number;
  /** Most total weight held (default: no weight limit). */
  readonly maxWeight?: number;
}

interface Slot<V> {
  readonly value: V;
  weight: number;
}

/**
 * A least-recently-used map under a count limit, a weight limit, or both: the one eviction mechanism
 * behind the per-process memo tables, the hot room tails and the rendered-reply cache. Relies on Map
 * keeping insertion order: a touched entry is re-inserted at the back, the front is evicted first.
 * The entry being stored or grown is never its own victim, so a single entry heavier than the limit
 * stays until something else is stored (callers that must not hold such an entry check first).
 */
export class LruMap<K, V> {
  private readonly slots = new Map<K, Slot<V>>();
  private total = 0;
  private readonly maxEntries: number;
  private readonly maxWeight: number;

  constructor(limits: LruLimits) {
    this.maxEntries = limits.maxEntries ?? Number.POSITIVE_INFINITY;
    this.maxWeight = limits.maxWeight ?? Number.POSITIVE_INFINITY;
  }

  get size(): number {
    return this.slots.size;
  }

  /** Sum of the weights of the entries held. */
  get weight(): number {
    return this.total;
  }

  /** The value, now the most recently used. */
  get(key: K): V | undefined {
    const slot = this.slots.get(key);
    if (slot === undefined) return undefined;
    this.slots.delete(key);
    this.slots.set(key, slot);
    return slot.value;
  }

  /** The value without touching its recency. */
  peek(key: K): V | undefined {
    return this.slots.get(key)?.value;
  }

  /** Stores `value` as the most recently used entry, replacing any under `key`, then evicts. */
  set(key: K, value: V, weight = 1): void {
    this.delete(key);
    this.slots.set(key, { value, weight });
    this.total += weight;
    this.evict(key);
  }

  /** Records that the entry under `key` grew or shrank by `delta`; growth may evict others. */
  reweigh(key: K, delta: number): void {
    const slot = this.slots.get(key);
    if (slot === undefined) return;
    slot.weight += delta;
    this.total += delta;
    if (delta > 0) this.evict(key);
  }

  delete(key: K): void {
    const slot = this.slots.get(key);
    if (slot === undefined) return;
    this.total -= slot.weight;
    this.slots.delete(key);
  }

  private evict(keep: K): void {
    for (const [key, slot] of this.slots) {
      if (this.slots.size <= this.maxEntries && this.total <= this.maxWeight) return;
      if (key === keep) continue;
      this.total -= slot.weight;
      this.slots.delete(key);
    }
  }
}

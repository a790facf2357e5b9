/**
 * A least-recently-used map with a fixed capacity, for per-process memo tables fed by client input
 * (did:key checks, imported verification keys). Invariant: never more than `capacity` entries, so a
 * client cycling through fresh keys costs evictions, never memory. Relies on Map keeping insertion
 * order: a hit is re-inserted at the back, the front is the eviction victim.
 */
export class BoundedLru<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError('capacity must be a positive integer');
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value as K;
      this.entries.delete(oldest);
    }
  }
}

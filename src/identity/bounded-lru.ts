import { LruMap } from '../common/lru-map';

/**
 * A least-recently-used map with a fixed capacity, for per-process memo tables fed by client input
 * (did:key checks, imported verification keys). Invariant: never more than `capacity` entries, so a
 * client cycling through fresh keys costs evictions, never memory.
 */
export class BoundedLru<K, V> extends LruMap<K, V> {
  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError('capacity must be a positive integer');
    super({ maxEntries: capacity });
  }
}

/** The sort key of a listed room: what the reference's directory walk sorted on (contract §11.1). */
export interface RecencyKey {
  readonly name: string;
  /** µs of the last write (the ring file's mtime). */
  readonly at: number;
  /** Ring file size. */
  readonly bytes: number;
}

/** Newest activity first; ties: larger ring first, then name descending. */
function compare(a: RecencyKey, b: RecencyKey): number {
  if (a.at !== b.at) return b.at - a.at;
  if (a.bytes !== b.bytes) return b.bytes - a.bytes;
  return a.name < b.name ? 1 : a.name > b.name ? -1 : 0;
}

/**
 * Every listed room in listing order, so `/rooms?limit=n` is the first n entries and never a sort.
 * A sorted array with binary search: an update is a remove and an insert. The written room is nearly
 * always the newest, so the insert lands at the front; the memmove of a few thousand references costs
 * microseconds, far below a write's fsync. Invariant: `keys` is sorted by `compare` and holds one
 * entry per name in `byName`.
 */
export class RecencyIndex {
  private readonly keys: RecencyKey[] = [];
  private readonly byName = new Map<string, RecencyKey>();
  private byteTotal = 0;

  get size(): number {
    return this.keys.length;
  }

  /** Sum of the ring bytes of every indexed room. */
  get bytes(): number {
    return this.byteTotal;
  }

  /** Inserts a room or moves it to where its new key sorts. */
  upsert(key: RecencyKey): void {
    this.remove(key.name);
    this.keys.splice(this.position(key), 0, key);
    this.byName.set(key.name, key);
    this.byteTotal += key.bytes;
  }

  remove(name: string): void {
    const old = this.byName.get(name);
    if (old === undefined) return;
    this.keys.splice(this.position(old), 1);
    this.byName.delete(name);
    this.byteTotal -= old.bytes;
  }

  /** The first `limit` rooms in listing order. */
  first(limit: number): readonly RecencyKey[] {
    return this.keys.slice(0, limit);
  }

  /** Index of `key` if present, else where it would be inserted (lower bound). */
  private position(key: RecencyKey): number {
    let low = 0;
    let high = this.keys.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (compare(this.keys[mid], key) < 0) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}

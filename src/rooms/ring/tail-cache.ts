import { LruMap } from '../../common/lru-map';
import { RecordDeque } from './record-deque';

/**
 * The in-memory tails of rooms (each the newest ≤ 1 MiB of records, everything a read may return)
 * under one global byte budget. Least recently used tails are dropped when the budget is exceeded;
 * the rooms projection reloads a dropped tail from its ring file on the next read. Hot rooms therefore
 * never touch the disk on a read, and memory stays bounded however many rooms exist. The budget is
 * counted in the tails' estimated heap footprint, not their ring bytes: a parsed record holds about
 * twice its stored size, and a budget in ring bytes let 256 MiB of tails occupy ~650 MB of heap.
 */
export class TailCache {
  private readonly tails: LruMap<string, RecordDeque>;

  constructor(budgetBytes: number) {
    this.tails = new LruMap({ maxWeight: budgetBytes });
  }

  get(room: string): RecordDeque | undefined {
    return this.tails.get(room);
  }

  /** Tail of a room without touching its recency (used by the write path). */
  peek(room: string): RecordDeque | undefined {
    return this.tails.peek(room);
  }

  put(room: string, tail: RecordDeque): void {
    this.tails.set(room, tail, tail.footprint);
  }

  /** Records a change in the footprint of a cached tail (append or compaction). */
  adjust(room: string, deltaBytes: number): void {
    this.tails.reweigh(room, deltaBytes);
  }

  drop(room: string): void {
    this.tails.delete(room);
  }

  get footprint(): number {
    return this.tails.weight;
  }

  get size(): number {
    return this.tails.size;
  }
}

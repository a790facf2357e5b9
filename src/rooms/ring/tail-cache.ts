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
  private readonly tails = new Map<string, RecordDeque>();
  private total = 0;

  constructor(private readonly budgetBytes: number) {}

  get(room: string): RecordDeque | undefined {
    const tail = this.tails.get(room);
    if (tail !== undefined) {
      this.tails.delete(room);
      this.tails.set(room, tail);
    }
    return tail;
  }

  /** Tail of a room without touching its recency (used by the write path). */
  peek(room: string): RecordDeque | undefined {
    return this.tails.get(room);
  }

  put(room: string, tail: RecordDeque): void {
    this.drop(room);
    this.tails.set(room, tail);
    this.total += tail.footprint;
    this.evict(room);
  }

  /** Records a change in the footprint of a cached tail (append or compaction). */
  adjust(room: string, deltaBytes: number): void {
    this.total += deltaBytes;
    if (deltaBytes > 0) this.evict(room);
  }

  drop(room: string): void {
    const tail = this.tails.get(room);
    if (tail === undefined) return;
    this.total -= tail.footprint;
    this.tails.delete(room);
  }

  get footprint(): number {
    return this.total;
  }

  get size(): number {
    return this.tails.size;
  }

  private evict(keep: string): void {
    for (const [room, tail] of this.tails) {
      if (this.total <= this.budgetBytes) return;
      if (room === keep) continue;
      this.total -= tail.footprint;
      this.tails.delete(room);
    }
  }
}

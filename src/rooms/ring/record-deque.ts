import { recordFootprint, StoredRecord } from '../read-side/stored-record';

/**
 * The newest records of one room, oldest first, bounded by a byte budget (the newest 1 MiB the read
 * rules may scan). Appends at the newest end, drops at the oldest end; amortised O(1) both ways.
 * Two sizes are kept: `bytes`, the records' size in the ring (what the read window is measured in),
 * and `footprint`, the memory they hold (what the tail cache's budget is measured in).
 */
export class RecordDeque {
  private items: StoredRecord[] = [];
  private start = 0;
  private byteTotal = 0;
  private footprintTotal = 0;

  constructor(private readonly maxBytes: number) {}

  get length(): number {
    return this.items.length - this.start;
  }

  get bytes(): number {
    return this.byteTotal;
  }

  /** Estimated heap bytes of the retained records (recordFootprint). */
  get footprint(): number {
    return this.footprintTotal;
  }

  /** i-th record from the oldest retained (0-based). */
  at(i: number): StoredRecord {
    return this.items[this.start + i];
  }

  newest(): StoredRecord | undefined {
    return this.length > 0 ? this.items[this.items.length - 1] : undefined;
  }

  /**
   * Appends and drops the oldest records until the newest ones fit the budget (one always stays).
   * Returns the change in footprint.
   */
  push(record: StoredRecord): number {
    const before = this.footprintTotal;
    this.items.push(record);
    this.byteTotal += record.bytes;
    this.footprintTotal += recordFootprint(record);
    while (this.byteTotal > this.maxBytes && this.length > 1) this.dropOldest();
    return this.footprintTotal - before;
  }

  /** Drops records older than `seq` (after a ring compaction). Returns the footprint released. */
  dropBefore(seq: number): number {
    const before = this.footprintTotal;
    while (this.length > 0 && this.items[this.start].seq < seq) this.dropOldest();
    return before - this.footprintTotal;
  }

  private dropOldest(): void {
    const oldest = this.items[this.start];
    this.byteTotal -= oldest.bytes;
    this.footprintTotal -= recordFootprint(oldest);
    this.start++;
    if (this.start > 1024 && this.start * 2 > this.items.length) {
      this.items = this.items.slice(this.start);
      this.start = 0;
    }
  }
}

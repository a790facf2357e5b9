import { StoredRecord } from '../model/stored-record';

/**
 * The newest records of one room, oldest first, bounded by a byte budget (the newest 1 MiB the read
 * rules may scan). Appends at the newest end, drops at the oldest end; amortised O(1) both ways.
 */
export class RecordDeque {
  private items: StoredRecord[] = [];
  private start = 0;
  private byteTotal = 0;

  constructor(private readonly maxBytes: number) {}

  get length(): number {
    return this.items.length - this.start;
  }

  get bytes(): number {
    return this.byteTotal;
  }

  /** i-th record from the oldest retained (0-based). */
  at(i: number): StoredRecord {
    return this.items[this.start + i];
  }

  newest(): StoredRecord | undefined {
    return this.length > 0 ? this.items[this.items.length - 1] : undefined;
  }

  /** Appends and drops the oldest records until the newest ones fit the budget (one always stays). */
  push(record: StoredRecord): number {
    this.items.push(record);
    this.byteTotal += record.bytes;
    let dropped = 0;
    while (this.byteTotal > this.maxBytes && this.length > 1) dropped += this.dropOldest();
    return record.bytes - dropped;
  }

  /** Drops records older than `seq` (after a ring compaction). Returns the bytes released. */
  dropBefore(seq: number): number {
    let released = 0;
    while (this.length > 0 && this.items[this.start].seq < seq) released += this.dropOldest();
    return released;
  }

  private dropOldest(): number {
    const bytes = this.items[this.start].bytes;
    this.byteTotal -= bytes;
    this.start++;
    if (this.start > 1024 && this.start * 2 > this.items.length) {
      this.items = this.items.slice(this.start);
      this.start = 0;
    }
    return bytes;
  }
}

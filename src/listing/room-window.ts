/** The engagement window of one room (contract §11.2): at most this many of the newest records… */
export const WINDOW_RECORDS = 200;
/** …and only records lying wholly inside the newest 64 KiB of the ring. */
export const WINDOW_BYTES = 64 * 1024;

interface WindowEntry {
  readonly from: string;
  /** Bytes the record occupies in the ring file, newline included. */
  readonly bytes: number;
  readonly seq: number;
}

/**
 * The newest records of one room as `/rooms` measures them, kept up to date record by record so a
 * listing never scans a ring: a circular buffer of `{from, bytes, seq}`, a count per writer (distinct
 * writers = nick diversity) and the length of the newest run of records by the newest writer (the
 * records nobody answered). Invariants: entries are oldest first, their bytes sum to at most
 * WINDOW_BYTES, there are at most WINDOW_RECORDS of them, and `run` ≤ `size`.
 */
export class RoomWindow {
  private readonly entries: Array<WindowEntry | undefined> = new Array(WINDOW_RECORDS);
  private head = 0;
  private count = 0;
  private byteTotal = 0;
  private newestRun = 0;
  private readonly writers = new Map<string, number>();

  /** Number of records in the window. */
  get size(): number {
    return this.count;
  }

  /** Length of the newest run of records written by the newest record's writer. */
  get run(): number {
    return this.newestRun;
  }

  /** Distinct writers in the window. */
  get distinctWriters(): number {
    return this.writers.size;
  }

  /** The distinct writers (for the pooled diversity of a listing). */
  writerNames(): IterableIterator<string> {
    return this.writers.keys();
  }

  /** Appends the room's newest record and drops the oldest ones the bounds no longer admit. */
  push(from: string, bytes: number, seq: number): void {
    if (this.count === WINDOW_RECORDS) this.dropOldest();
    const newest = this.count > 0 ? this.at(this.count - 1) : undefined;
    this.newestRun = newest !== undefined && newest.from === from ? this.newestRun + 1 : 1;
    this.entries[(this.head + this.count) % WINDOW_RECORDS] = { from, bytes, seq };
    this.count++;
    this.byteTotal += bytes;
    this.writers.set(from, (this.writers.get(from) ?? 0) + 1);
    while (this.byteTotal > WINDOW_BYTES && this.count > 0) this.dropOldest();
  }

  /** Drops records older than `seq` (the ring was compacted past them). */
  dropBefore(seq: number): void {
    while (this.count > 0 && this.at(0).seq < seq) this.dropOldest();
  }

  private at(i: number): WindowEntry {
    return this.entries[(this.head + i) % WINDOW_RECORDS]!;
  }

  private dropOldest(): void {
    const oldest = this.at(0);
    this.entries[this.head] = undefined;
    this.head = (this.head + 1) % WINDOW_RECORDS;
    this.count--;
    this.byteTotal -= oldest.bytes;
    const left = this.writers.get(oldest.from)! - 1;
    if (left === 0) this.writers.delete(oldest.from);
    else this.writers.set(oldest.from, left);
    this.newestRun = Math.min(this.newestRun, this.count);
  }
}

import { parseRecordLine, StoredRecord } from '../read-side/stored-record';

const NEWLINE = 0x0a;
/** Bytes read per probe; a longer line (up to ~16 KiB of JSON) is read on in further steps. */
const PROBE_BYTES = 4096;
/** Bytes read per step when walking a range of lines. */
const CHUNK_BYTES = 64 * 1024;

/** Bytes of one ring file (or of an export's snapshot of it): `read` returns [start, end). */
export interface ByteSource {
  readonly size: number;
  read(start: number, end: number): Buffer;
}

/** A stored record and where its line starts and ends (after its newline) in the file. */
export interface PlacedRecord {
  readonly record: StoredRecord;
  readonly start: number;
  readonly end: number;
}

/** The seq of a stored line without building the record (every stored line starts `{"seq":<n>,`). */
function lineSeq(line: string): number | null {
  const fast = /^\{"seq":(\d{1,15}),/.exec(line);
  if (fast !== null) return Number(fast[1]);
  return parseRecordLine(line)?.seq ?? null;
}

/**
 * The first complete, parsable line starting at or after byte `from` (a line starts at 0 or right
 * after a newline), with its seq; null when there is none before `source.size`. Unparsable lines (a
 * torn line healed by a later append, §6.1) are skipped as every reader skips them. One read serves
 * a probe unless a line runs past it.
 */
function firstLineAtOrAfter(source: ByteSource, from: number): { seq: number; start: number } | null {
  const window = new ReadWindow(source, from > 0 ? from - 1 : 0);
  let start = from;
  if (from > 0) {
    const newline = window.newlineFrom(from - 1);
    if (newline < 0) return null;
    start = newline + 1;
  }
  for (;;) {
    const end = window.newlineFrom(start);
    if (end < 0) return null; // an incomplete last line: a write in progress or a torn tail
    const seq = lineSeq(window.text(start, end));
    if (seq !== null) return { seq, start };
    start = end + 1;
  }
}

/** Bytes of a source from a fixed start, read on in PROBE_BYTES steps as far as a caller looks. */
class ReadWindow {
  private bytes: Buffer = Buffer.alloc(0);

  constructor(
    private readonly source: ByteSource,
    private readonly base: number,
  ) {}

  /** Position of the first newline at or after `position`, or -1 when the source ends first. */
  newlineFrom(position: number): number {
    for (;;) {
      const index = this.bytes.indexOf(NEWLINE, Math.max(0, position - this.base));
      if (index >= 0) return this.base + index;
      const loaded = this.base + this.bytes.length;
      if (loaded >= this.source.size) return -1;
      const more = this.source.read(loaded, Math.min(this.source.size, loaded + PROBE_BYTES));
      this.bytes = this.bytes.length === 0 ? more : Buffer.concat([this.bytes, more]);
    }
  }

  text(start: number, end: number): string {
    return this.bytes.toString('utf8', start - this.base, end - this.base);
  }
}

/**
 * Byte offset of the first line whose seq is greater than `seq` (`source.size` when none is).
 * Seqs increase along a ring file, so "the seq of the first line at or after p" never decreases as p
 * grows: a binary search over byte positions finds the boundary in O(log size) small reads, with no
 * index kept anywhere.
 */
export function offsetAfterSeq(source: ByteSource, seq: number): number {
  let lo = 0;
  let hi = source.size;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    const line = firstLineAtOrAfter(source, mid);
    if (line === null || line.seq > seq) hi = mid;
    else lo = mid + 1;
  }
  return firstLineAtOrAfter(source, lo)?.start ?? source.size;
}

export interface ForwardLimits {
  /** Stop after this many records. */
  readonly maxRecords: number;
  /** Stop before the record that would take the line bytes past this (one record always fits). */
  readonly maxBytes: number;
  /** Stop at the first record whose seq is at least this (exclusive end). */
  readonly beforeSeq?: number;
}

/** Complete, parsable records from byte `from` on, oldest first, within the limits. */
export function recordsFrom(source: ByteSource, from: number, limits: ForwardLimits): PlacedRecord[] {
  const out: PlacedRecord[] = [];
  let bytes = 0;
  let at = from;
  let carry: Buffer = Buffer.alloc(0);
  while (at < source.size) {
    const chunk = source.read(at, Math.min(source.size, at + CHUNK_BYTES));
    const data = carry.length === 0 ? chunk : Buffer.concat([carry, chunk]);
    const base = at - carry.length;
    at += chunk.length;
    let start = 0;
    for (let end = data.indexOf(NEWLINE); end >= 0; end = data.indexOf(NEWLINE, start)) {
      const record = parseRecordLine(data.toString('utf8', start, end));
      const placed = { start: base + start, end: base + end + 1 };
      start = end + 1;
      if (record === null) continue;
      if (limits.beforeSeq !== undefined && record.seq >= limits.beforeSeq) return out;
      if (out.length > 0 && bytes + record.bytes > limits.maxBytes) return out;
      out.push({ record, ...placed });
      bytes += record.bytes;
      if (out.length >= limits.maxRecords) return out;
    }
    carry = data.subarray(start);
  }
  return out;
}

/**
 * The newest `count` complete, parsable records that end at or before byte `end`, oldest first:
 * read backwards in chunks until enough lines are found or the file's start is reached.
 */
export function recordsBefore(source: ByteSource, end: number, count: number): StoredRecord[] {
  let window = CHUNK_BYTES;
  for (;;) {
    const start = Math.max(0, end - window);
    const chunk = source.read(start, end);
    const records: StoredRecord[] = [];
    let lineStart = 0;
    if (start > 0) lineStart = chunk.indexOf(NEWLINE) + 1; // the first line may be cut: skip it
    if (lineStart > 0 || start === 0) {
      for (let nl = chunk.indexOf(NEWLINE, lineStart); nl >= 0; nl = chunk.indexOf(NEWLINE, lineStart)) {
        const record = parseRecordLine(chunk.toString('utf8', lineStart, nl));
        lineStart = nl + 1;
        if (record !== null) records.push(record);
      }
    }
    if (records.length >= count || start === 0) return records.slice(-count);
    window *= 2;
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { Clock } from '../common/clock';
import { hasClass } from '../common/names';
import { RoomMeta } from './read-side/room-meta';
import { StoredRecord } from './read-side/stored-record';
import { RecordDeque } from './ring/record-deque';
import { RingFileStore } from './ring/ring-file-store';
import { ByteSource, offsetAfterSeq, recordsBefore, recordsFrom } from './ring/ring-seek';
import { RoomsProjection } from './rooms.projection';

/** How much one forward read may return. */
export interface SliceLimits {
  readonly maxRecords: number;
  /** Line bytes (one record always fits). */
  readonly maxBytes: number;
}

/** Records after a cursor and the room state they were read against. */
export interface HistorySlice {
  /** Oldest first; never an expired record of an `e-` room. */
  readonly records: readonly StoredRecord[];
  readonly exists: boolean;
  readonly generation: number;
  /** Newest seq ever assigned (the floor while reaped, 0 for a name never created). */
  readonly head: number;
  /** Oldest seq the ring still holds (0 when it holds none). */
  readonly firstSeq: number;
}

/**
 * Reads a room's whole retained ring by seq, for the readers that page through history instead of
 * asking for the newest messages: streams resuming from a cursor, `/watch`, `before=` pages. The hot
 * tail (newest ≤ 1 MiB, in memory) answers when it reaches back far enough; older records come from
 * the ring file, found by a binary search over its bytes (ring-seek.ts), so nothing is indexed and a
 * cursor anywhere in a 10 MiB ring costs a few small reads. Read-only: the rooms projection owns the
 * files, and held appends are read as if written (RingFileStore.readRange).
 */
@Injectable()
export class RoomHistory {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly rooms: RoomsProjection,
    private readonly files: RingFileStore,
    private readonly clock: Clock,
  ) {}

  /** Records with seq > `since`, oldest first, within `limits`. */
  after(room: string, since: number, limits: SliceLimits): HistorySlice {
    const meta = this.rooms.meta(room);
    const state = {
      exists: meta?.exists ?? false,
      generation: meta?.generation ?? 0,
      head: meta?.head ?? 0,
      firstSeq: meta?.exists ? meta.firstSeq : 0,
    };
    if (meta === undefined || !meta.exists || since >= meta.head) return { ...state, records: [] };
    // Expired records of an e- room come first (they are the oldest): skip past them, so the limits
    // count only records the reader may get.
    for (let from = since; ;) {
      const raw = this.rawAfter(meta, from, limits);
      const records = this.unexpired(room, raw);
      if (records.length > 0 || raw.length === 0) return { ...state, records };
      from = raw[raw.length - 1].seq;
    }
  }

  private rawAfter(meta: RoomMeta, since: number, limits: SliceLimits): StoredRecord[] {
    const tail = this.rooms.tail(meta.name);
    if (tail !== null && tail.length > 0 && reachesBack(tail, meta, since + 1)) {
      return tailAfter(tail, since, limits);
    }
    return this.ringAfter(meta, since, limits);
  }

  /** The record `seq` of a live room while the ring still holds it (an idempotent replay's `posted`). */
  record(room: string, seq: number): StoredRecord | null {
    const meta = this.rooms.meta(room);
    if (meta === undefined || !meta.exists || seq < meta.firstSeq || seq > meta.head) return null;
    const found = this.rawAfter(meta, seq - 1, { maxRecords: 1, maxBytes: Infinity })[0];
    return found?.seq === seq ? found : null;
  }

  /** The newest `limit` records with `since` < seq < `before`, oldest first. */
  before(room: string, before: number, since: number | null, limit: number): StoredRecord[] {
    const meta = this.rooms.meta(room);
    if (meta === undefined || !meta.exists || before <= 1) return [];
    const tail = this.rooms.tail(room);
    let records = tail === null ? [] : tailBefore(tail, before, limit);
    const tailHoldsRing = tail !== null && tail.length > 0 && tail.at(0).seq <= meta.firstSeq;
    if (records.length < limit && !tailHoldsRing) {
      const source = this.source(meta);
      records = recordsBefore(source, offsetAfterSeq(source, before - 1), limit);
    }
    const fresh = this.unexpired(room, records);
    return since === null ? fresh : fresh.filter((record) => record.seq > since);
  }

  private ringAfter(meta: RoomMeta, since: number, limits: SliceLimits): StoredRecord[] {
    const source = this.source(meta);
    return recordsFrom(source, offsetAfterSeq(source, since), limits).map((placed) => placed.record);
  }

  private source(meta: RoomMeta): ByteSource {
    const { file, bytes } = meta;
    return { size: bytes, read: (start, end) => this.files.readRange(file, start, end) };
  }

  /** `e-` rooms: records older than the TTL are hidden from every reader (contract §9.2). */
  private unexpired(room: string, records: readonly StoredRecord[]): StoredRecord[] {
    if (!hasClass(room, 'e')) return records as StoredRecord[];
    const cutoff = this.clock.nowMs() - this.config.ephemeralTtlSeconds * 1000;
    return records.filter((record) => record.tsMs !== null && record.tsMs >= cutoff);
  }
}

/** Whether the tail holds every retained record from seq `from` on. */
function reachesBack(tail: RecordDeque, meta: RoomMeta, from: number): boolean {
  const oldest = tail.at(0).seq;
  return oldest <= from || oldest <= meta.firstSeq;
}

/** Index of the first tail record with seq > `seq` (tail.length when none): seqs increase along it. */
function tailIndexAfter(tail: RecordDeque, seq: number): number {
  let lo = 0;
  let hi = tail.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (tail.at(mid).seq > seq) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

function tailAfter(tail: RecordDeque, since: number, limits: SliceLimits): StoredRecord[] {
  const out: StoredRecord[] = [];
  let bytes = 0;
  for (let i = tailIndexAfter(tail, since); i < tail.length && out.length < limits.maxRecords; i++) {
    const record = tail.at(i);
    if (out.length > 0 && bytes + record.bytes > limits.maxBytes) break;
    out.push(record);
    bytes += record.bytes;
  }
  return out;
}

function tailBefore(tail: RecordDeque, before: number, limit: number): StoredRecord[] {
  const end = tailIndexAfter(tail, before - 1);
  const out: StoredRecord[] = [];
  for (let i = Math.max(0, end - limit); i < end; i++) out.push(tail.at(i));
  return out;
}

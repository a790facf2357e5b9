import { FIXED_LIMITS } from '../../config/app-config';
import { hasClass } from '../../common/names';
import { RoomMeta } from '../read-side/room-meta';
import { parseRecordLine } from '../read-side/stored-record';
import { completeLines } from './complete-lines';
import { RingFileStore } from './ring-file-store';

export interface CompactionResult {
  readonly file: string;
  readonly epoch: number;
  readonly bytes: number;
  readonly records: number;
  readonly firstSeq: number;
}

/**
 * Ring compaction (contract §4): keep the newest records that fit in `keepBytes`, at most 81,920 of
 * them and never fewer than the newest one; `e-` rooms also drop the records before the first one
 * younger than the TTL measured from the triggering append's time (never the newest). What is kept is
 * always a suffix of the file's lines, so the dropped lines are the file's first bytes. The result goes to the next epoch's file; the
 * old file stays until no checkpoint names it. Deterministic: same file + same arguments → same bytes.
 */
export class RingCompactor {
  constructor(
    private readonly files: RingFileStore,
    private readonly ephemeralTtlSeconds: number,
  ) {}

  compact(meta: RoomMeta, keepBytes: number, atMicros: number): CompactionResult {
    const lines = this.newestLines(meta, keepBytes);
    let kept = lines.slice(-FIXED_LIMITS.maxRecordsPerRing);
    if (hasClass(meta.name, 'e')) {
      const cutoffMs = atMicros / 1000 - this.ephemeralTtlSeconds * 1000;
      // From the first fresh line on, so the kept lines stay a suffix of the file and the room's
      // hash chain runs on unbroken from the anchor (an older line between fresh ones, which clocks
      // of two nodes can produce, is kept and hidden by the readers' own expiry filter).
      const firstFresh = kept.findIndex((line) => {
        const tsMs = parseRecordLine(line)?.tsMs ?? null;
        return tsMs !== null && tsMs >= cutoffMs;
      });
      kept = firstFresh >= 0 ? kept.slice(firstFresh) : kept.slice(-1);
    }
    const data = Buffer.from(kept.map((line) => `${line}\n`).join(''), 'utf8');
    const epoch = meta.epoch + 1;
    const file = RingFileStore.fileName(meta.name, meta.generation, epoch);
    this.files.writeWhole(file, data);
    const firstSeq = kept.map(parseRecordLine).find((record) => record !== null)?.seq ?? meta.head;
    return { file, epoch, bytes: data.length, records: kept.length, firstSeq };
  }

  /** Complete lines within the newest `keepBytes` of the file, or just the newest line if none fits. */
  private newestLines(meta: RoomMeta, keepBytes: number): string[] {
    const start = Math.max(0, meta.bytes - keepBytes);
    const lines = completeLines(this.files.readRange(meta.file, start, meta.bytes), start > 0);
    if (lines.length > 0) return lines;
    const all = completeLines(this.files.readRange(meta.file, 0, meta.bytes), false);
    return all.slice(-1);
  }
}

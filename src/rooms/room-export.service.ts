import { Inject, Injectable } from '@nestjs/common';
import { Readable } from 'node:stream';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { Clock } from '../common/clock';
import { assertName, hasClass } from '../common/names';
import { parseSeqParam } from './cursor/seq-param';
import { parseRecordLine } from './read-side/stored-record';
import { RingFileStore } from './ring/ring-file-store';
import { RingSnapshot } from './ring/ring-snapshot';
import { offsetAfterSeq } from './ring/ring-seek';
import { RoomsProjection } from './rooms.projection';
import { RoomMeta } from './read-side/room-meta';
import { chainOver } from './chain/room-chain';

export interface RoomExport {
  readonly generation: number;
  /** The ring bytes, or null for a room that does not exist (an empty body). */
  readonly body: Readable | null;
  /** Chain hashes just before the body's first line and after its last (null when the room does not exist). */
  readonly chain: ExportChain | null;
}

export interface ExportChain {
  readonly anchor: string;
  readonly head: string;
}

const CHUNK = 64 * 1024;

/**
 * GET /r/{room}/export (contract §6.2): the ring file's bytes exactly as stored, from a snapshot taken
 * before anything else can happen (an open fd, or a copy in memory while the disk refuses held
 * appends: RingFileStore.snapshot), cut back to the last complete line. Compaction writes a new file,
 * so the open fd keeps reading the snapshot. `e-` rooms start at the first readable, unexpired line.
 * `after=<seq>` (archivers fetching only what is new since their last export) starts at the first
 * line with a greater seq, found by a binary search over the snapshot: the bytes are the stored
 * lines exactly, so appending them to the previous export gives the ring as one export would.
 */
@Injectable()
export class RoomExportService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly rooms: RoomsProjection,
    private readonly files: RingFileStore,
    private readonly clock: Clock,
  ) {}

  open(room: string, afterRaw?: string): RoomExport {
    assertName(room);
    const after = afterRaw === undefined ? null : parseSeqParam('after', afterRaw);
    const meta = this.rooms.meta(room);
    const generation = meta?.generation ?? 0;
    if (meta === undefined || !meta.exists) return { generation, body: null, chain: null };
    const snapshot = this.files.snapshot(meta.file);
    try {
      const end = lastCompleteLineEnd(snapshot);
      const fresh = hasClass(room, 'e') ? this.firstFreshLine(snapshot, end) : 0;
      const start =
        after === null ? fresh : Math.max(fresh, offsetAfterSeq({ size: end, read: snapshot.read }, after));
      const chain = meta.chain === '' ? null : exportChain(snapshot, meta, Math.min(start, end), end);
      if (end <= start) {
        snapshot.close();
        return { generation, body: null, chain };
      }
      return { generation, body: snapshot.stream(start, end, CHUNK), chain };
    } catch (error) {
      snapshot.close();
      throw error;
    }
  }

  /** Offset of the first line that parses and is not expired (lines before it are skipped). */
  private firstFreshLine(snapshot: RingSnapshot, end: number): number {
    const cutoffMs = this.clock.nowMs() - this.config.ephemeralTtlSeconds * 1000;
    let offset = 0;
    let pending = Buffer.alloc(0);
    for (let position = 0; position < end;) {
      const chunk = snapshot.read(position, Math.min(end, position + CHUNK));
      if (chunk.length === 0) break;
      position += chunk.length;
      pending = Buffer.concat([pending, chunk]);
      let newline: number;
      while ((newline = pending.indexOf(10)) >= 0) {
        const record = parseRecordLine(pending.subarray(0, newline).toString('utf8'));
        if (record !== null && record.tsMs !== null && record.tsMs >= cutoffMs) return offset;
        offset += newline + 1;
        pending = pending.subarray(newline + 1);
      }
    }
    return end;
  }
}

/**
 * The chain around the exported bytes [start, end) of the ring file. A whole-ring export (the usual
 * case: the file was just flushed, so `end` is the projection's length) takes both hashes from the
 * projection with no read; one that skips leading lines (`after=`, expired `e-` lines) hashes them.
 */
function exportChain(snapshot: RingSnapshot, meta: RoomMeta, start: number, end: number): ExportChain {
  const anchor = start === 0 ? meta.anchor : chainOver(meta.anchor, snapshot.read(0, start));
  if (end === meta.bytes) return { anchor, head: meta.chain };
  return { anchor, head: chainOver(anchor, snapshot.read(start, end)) };
}

/** The snapshot's size cut back to just after the last newline, so no partial line is ever exported. */
function lastCompleteLineEnd(snapshot: RingSnapshot): number {
  for (let end = snapshot.size; end > 0;) {
    const start = Math.max(0, end - CHUNK);
    const newline = snapshot.read(start, end).lastIndexOf(10);
    if (newline >= 0) return start + newline + 1;
    end = start;
  }
  return 0;
}

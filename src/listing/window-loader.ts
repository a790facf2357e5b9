import { Injectable } from '@nestjs/common';
import { RoomMeta } from '../rooms/read-side/room-meta';
import { parseRecordLine } from '../rooms/read-side/stored-record';
import { completeLines } from '../rooms/ring/complete-lines';
import { RingFileStore } from '../rooms/ring/ring-file-store';
import { TailCache } from '../rooms/ring/tail-cache';
import { RoomWindow, WINDOW_BYTES, WINDOW_RECORDS } from './room-window';

/**
 * Fills a room's engagement window the first time a listing shows the room (after a start-up, or for a
 * room whose window was never needed): from its hot tail when one is cached, else by reading only the
 * newest 64 KiB of its ring file — the records wholly inside them, as the reference scanned — without
 * loading a full tail into the shared tail cache.
 */
@Injectable()
export class WindowLoader {
  constructor(
    private readonly tails: TailCache,
    private readonly files: RingFileStore,
  ) {}

  load(meta: RoomMeta): RoomWindow {
    const window = new RoomWindow();
    for (const record of this.newestRecords(meta)) window.push(record.from, record.bytes, record.seq);
    return window;
  }

  private newestRecords(meta: RoomMeta): Array<{ from: string; bytes: number; seq: number }> {
    const tail = this.tails.peek(meta.name);
    if (tail !== undefined) {
      let start = tail.length;
      for (let bytes = 0; start > 0 && tail.length - start < WINDOW_RECORDS; start--) {
        bytes += tail.at(start - 1).bytes;
        if (bytes > WINDOW_BYTES) break;
      }
      return Array.from({ length: tail.length - start }, (_, i) => tail.at(start + i));
    }
    const from = Math.max(0, meta.bytes - WINDOW_BYTES);
    const lines = completeLines(this.files.readRange(meta.file, from, meta.bytes), from > 0);
    const records = lines.map(parseRecordLine).filter((r) => r !== null);
    return records.slice(-WINDOW_RECORDS);
  }
}

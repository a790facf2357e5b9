import { Injectable } from '@nestjs/common';
import { hasClass } from '../common/names';
import { ChatEvent } from '../events/chat-event';
import { Projection } from '../projections/projection';
import { RoomMeta } from '../rooms/read-side/room-meta';
import { parseAppendedRecord } from '../rooms/read-side/stored-record';
import { RoomsProjection } from '../rooms/rooms.projection';
import { RecencyIndex } from './recency-index';
import { RoomWindow } from './room-window';
import { WindowLoader } from './window-loader';

/** p- rooms are never listed (contract §3.2, §11.1). */
export function isListed(room: string): boolean {
  return !hasClass(room, 'p');
}

/**
 * The `/rooms` read model: every listed room in listing order (RecencyIndex) and, per room, the
 * engagement window (RoomWindow), both maintained event by event so a listing never walks a
 * directory or scans a ring.
 *
 * Everything here is derived from the rooms read model, so nothing is checkpointed: the index is built
 * from RoomsProjection on first use (after recovery and replay, so replay pays nothing), and a room's
 * window is filled by WindowLoader the first time a listing shows it, then kept current by `apply`. Must be applied after RoomsProjection (it reads the metadata that event just produced).
 * `version` changes whenever anything a listing shows may have changed, topics and note totals
 * included, so rendered listings can be cached until it moves.
 */
@Injectable()
export class ListingProjection implements Projection {
  readonly name = 'listing';
  private index: RecencyIndex | null = null;
  private readonly windows = new Map<string, RoomWindow>();
  private changes = 0;

  constructor(
    private readonly rooms: RoomsProjection,
    private readonly loader: WindowLoader,
  ) {}

  get version(): number {
    return this.changes;
  }

  apply(event: ChatEvent): void {
    if ('room' in event && !isListed(event.room)) return; // a p- room changes nothing listed
    this.changes++; // note events too: topics and the notes rollup are part of a listing
    if (this.index === null || !('room' in event)) return;
    const meta = this.rooms.meta(event.room);
    if (meta === undefined || !meta.exists) {
      this.index.remove(event.room);
      this.windows.delete(event.room);
      return;
    }
    this.index.upsert(keyOf(meta));
    if (event.type === 'room.created') this.windows.set(event.room, new RoomWindow());
    if (event.type !== 'message.appended') return;
    const window = this.windows.get(event.room);
    const record = window && parseAppendedRecord(event.record);
    if (!window || !record) return;
    window.push(record.from, record.bytes, record.seq);
    window.dropBefore(meta.firstSeq);
  }

  /** Listed rooms in listing order (built from the rooms read model on first use). */
  recency(): RecencyIndex {
    if (this.index === null) {
      const index = new RecencyIndex();
      for (const meta of this.rooms.liveMetas()) if (isListed(meta.name)) index.upsert(keyOf(meta));
      this.index = index;
    }
    return this.index;
  }

  /** The engagement window of a live listed room, loaded the first time it is asked for. */
  window(room: string): RoomWindow {
    let window = this.windows.get(room);
    if (window === undefined) {
      window = this.loader.load(this.rooms.meta(room)!);
      this.windows.set(room, window);
    }
    return window;
  }

  snapshot(): null {
    return null;
  }

  /** A checkpoint restored the rooms read model: forget everything, rebuild lazily from it. */
  restore(): void {
    this.index = null;
    this.windows.clear();
    this.changes++;
  }
}

function keyOf(meta: RoomMeta): { name: string; at: number; bytes: number } {
  return { name: meta.name, at: meta.lastWriteAt, bytes: meta.bytes };
}

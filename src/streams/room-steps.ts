import { Injectable } from '@nestjs/common';
import { hasClass } from '../common/names';
import { StoredRecord } from '../rooms/read-side/stored-record';
import { RoomHistory, SliceLimits } from '../rooms/room-history';
import { RoomsProjection } from '../rooms/rooms.projection';
import { Position, RoomCursor } from './cursor/room-cursors';

const NO_RECORDS: readonly StoredRecord[] = [];

/** Messages a reader will never get: the ring dropped them (compaction, a reap) or they expired (e- rooms). */
export interface Gap {
  readonly room: string;
  readonly from: number;
  readonly to: number;
  readonly reason: 'ring' | 'expired';
}

/**
 * The room is not the conversation the reader's cursor was read in: it was reaped and created again
 * (or the cursor came from elsewhere). Told whenever the cursor's generation is known, not 0, and not
 * the room's generation now.
 */
export interface Reset {
  readonly room: string;
  readonly generation: number;
  readonly previous: number;
}

/** One read of one room from a position: what to tell, in this order, and where the reader stands after. */
export interface RoomStep {
  readonly reset: Reset | null;
  readonly gap: Gap | null;
  readonly records: readonly StoredRecord[];
  readonly next: Position;
  /** More records wait after `next` (the limits cut this read short). */
  readonly more: boolean;
}

/**
 * Reads rooms forward from cursors for /watch and the streams, with the two things a plain read leaves
 * to the client to infer: a **reset** when the room's generation is not the one the cursor was read in
 * (reaped and created again), and a **gap** when messages between the cursor and what can still be
 * read are gone. Every message the ring still holds after the cursor is delivered, oldest first (not
 * only the newest 1 MiB a plain read scans), so a reader that resumes from its cursor gets each
 * message exactly once and learns explicitly about any it cannot get.
 */
@Injectable()
export class RoomSteps {
  constructor(
    private readonly history: RoomHistory,
    private readonly rooms: RoomsProjection,
  ) {}

  /**
   * Where a cursor starts: no seq means the room's newest message (only what comes next), a seq past
   * the head is clamped to it (as a plain read clamps `since`), and an unknown generation is the
   * current one. A known generation is kept as sent, so the first step reports a reset when it differs.
   */
  start(cursor: RoomCursor): Position {
    const meta = this.rooms.meta(cursor.room);
    const head = meta?.head ?? 0;
    return {
      room: cursor.room,
      seq: cursor.since === null ? head : Math.min(cursor.since, head),
      generation: cursor.generation ?? meta?.generation ?? 0,
    };
  }

  /** The room's generation and newest seq now (a stream's `ready` event lists them). */
  state(room: string): { readonly room: string; readonly generation: number; readonly head: number } {
    const meta = this.rooms.meta(room);
    return { room, generation: meta?.generation ?? 0, head: meta?.head ?? 0 };
  }

  step(from: Position, limits: SliceLimits): RoomStep {
    const { room } = from;
    // Most steps find a room unchanged since the reader's position (a watch wakes for one of its
    // rooms and looks at all of them): answered from the metadata alone.
    const meta = this.rooms.meta(room);
    const head = meta?.head ?? 0;
    if (from.seq >= head && from.generation === (meta?.generation ?? 0)) {
      const next = from.seq === head ? from : { room, seq: head, generation: from.generation };
      return { reset: null, gap: null, records: NO_RECORDS, next, more: false };
    }
    const slice = this.history.after(room, from.seq, limits);
    const since = Math.min(from.seq, slice.head);
    // A room's first creation (from generation 0) is no reset: there was no conversation to lose.
    const reset =
      from.generation === slice.generation || from.generation === 0
        ? null
        : { room, generation: slice.generation, previous: from.generation };
    const { records } = slice;
    const firstRead = records.length > 0 ? records[0].seq : slice.head + 1;
    let gap: Gap | null = null;
    if (firstRead > since + 1) {
      const expired = hasClass(room, 'e') && slice.exists && slice.firstSeq <= since + 1;
      gap = { room, from: since + 1, to: firstRead - 1, reason: expired ? 'expired' : 'ring' };
    }
    const seq = records.length > 0 ? records[records.length - 1].seq : Math.max(since, gap?.to ?? since);
    return {
      reset,
      gap,
      records,
      next: { room, seq, generation: slice.generation },
      more: seq < slice.head,
    };
  }
}

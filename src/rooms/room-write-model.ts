import { Injectable } from '@nestjs/common';
import { RoomEvent } from '../events/chat-event';
import { RoomsProjection } from './rooms.projection';

/** What a write decision needs to know about a room name. */
export interface RoomWriteState {
  readonly exists: boolean;
  readonly generation: number;
  /** Newest seq assigned (the floor while reaped). */
  readonly head: number;
}

interface PendingState extends RoomWriteState {
  /** Offset of the last appended-but-not-yet-applied event that changed this room. */
  readonly untilOffset: number;
}

/**
 * The state write decisions are made against: the rooms read model plus the effect of events that were
 * appended but not yet applied. Decisions, appends and these updates happen in one synchronous step,
 * so the order of decisions is the order of the log and two concurrent writers can never be given the
 * same seq or both create a room.
 */
@Injectable()
export class RoomWriteModel {
  private readonly pending = new Map<string, PendingState>();
  /** Nonces of signed appends not applied yet, by `room|did`. */
  private readonly pendingNonces = new Map<
    string,
    { readonly nonce: bigint; readonly untilOffset: number }
  >();

  constructor(private readonly rooms: RoomsProjection) {}

  view(room: string): RoomWriteState {
    const pending = this.pending.get(room);
    if (pending !== undefined) return pending;
    const meta = this.rooms.meta(room);
    return meta === undefined
      ? { exists: false, generation: 0, head: 0 }
      : { exists: meta.exists, generation: meta.generation, head: meta.head };
  }

  /** Rooms that exist or are being created (the room-count cap counts both). Only creations ask. */
  roomCount(): number {
    let count = this.rooms.liveRooms;
    for (const [room, state] of this.pending) {
      const applied = this.rooms.meta(room)?.exists ?? false;
      if (state.exists !== applied) count += state.exists ? 1 : -1;
    }
    return count;
  }

  /** The last nonce `did` spent in `room`, counting appends the read model has not applied yet. */
  lastNonce(room: string, did: string): bigint | null {
    return this.pendingNonces.get(`${room}|${did}`)?.nonce ?? this.rooms.lastNonce(room, did);
  }

  recordNonce(room: string, did: string, nonce: bigint, untilOffset: number): void {
    this.pendingNonces.set(`${room}|${did}`, { nonce, untilOffset });
  }

  settleNonce(room: string, did: string, offset: number): void {
    const key = `${room}|${did}`;
    const pending = this.pendingNonces.get(key);
    if (pending !== undefined && pending.untilOffset <= offset) this.pendingNonces.delete(key);
  }

  hasPending(room: string): boolean {
    return this.pending.has(room);
  }

  /** Records the state a just-appended event leads to. */
  record(room: string, state: RoomWriteState, untilOffset: number): void {
    this.pending.set(room, {
      exists: state.exists,
      generation: state.generation,
      head: state.head,
      untilOffset,
    });
  }

  /**
   * An append from `offset` on was refused (another node wrote first, or the log failed): forgets
   * the pending state it and any later append of this node recorded, so the next decision reads the
   * read model again. Later appends were chained on it by the log and are refused too.
   */
  discardFrom(offset: number): void {
    for (const [room, state] of this.pending) if (state.untilOffset >= offset) this.pending.delete(room);
    for (const [key, spent] of this.pendingNonces) {
      if (spent.untilOffset >= offset) this.pendingNonces.delete(key);
    }
  }

  /** Forgets pending state once the read model has applied everything up to `offset`. */
  settle(room: string, offset: number): void {
    const pending = this.pending.get(room);
    if (pending !== undefined && pending.untilOffset <= offset) this.pending.delete(room);
  }
}

/** How one event changes a room's write state (the write-side mirror of the projection's fold). */
export function nextWriteState(state: RoomWriteState, event: RoomEvent): RoomWriteState {
  switch (event.type) {
    case 'room.created':
      return { exists: true, generation: event.generation, head: state.head };
    case 'message.appended':
      return { ...state, head: event.seq };
    case 'room.reaped':
      return { exists: false, generation: state.generation, head: event.lastSeq };
  }
}

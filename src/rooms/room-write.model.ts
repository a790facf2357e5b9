import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock';
import { RoomEvent } from '../events/chat-event';
import { PendingEffects } from '../write/event-writer';
import { RoomHeads } from '../ownership/room-heads.port';
import { PendingOverlay } from '../write/pending-overlay';
import { roomScope } from '../write/log-scopes';
import { PriorWrite } from '../write/idempotency/idempotent-write';
import { PendingKeys } from '../write/idempotency/pending-keys';
import { MessageKeyEntry, MessageKeysProjection } from './idempotency/message-keys.projection';
import { EVENTS_ROOM } from './room-write.rules';
import { RoomsProjection } from './rooms.projection';
import { RoomAppendState, RoomWriteState, SpentNonce } from './room-write-state';
import { unreachable } from '../common/unreachable';

export type { RoomWriteState, SpentNonce } from './room-write-state';

/** A keyed append's entry for the key index, recorded as pending with the append. */
export interface KeyedAppend {
  readonly id: string;
  readonly entry: MessageKeyEntry;
}

/**
 * The state write decisions are made against: the rooms read model plus the effect of events that were
 * appended but not yet applied (two PendingOverlays: room states, and nonces by `room|did`). Decisions,
 * appends and the overlay updates happen in one synchronous step (EventWriter), so the order of
 * decisions is the order of the log and two concurrent writers can never be given the same seq or
 * both create a room. Ownership reads room heads here too (as the RoomHeads port), so a claim is
 * refused once a message to its room is decided.
 */
@Injectable()
export class RoomWriteModel implements RoomHeads {
  private readonly pending = new PendingOverlay<RoomWriteState>();
  private readonly pendingNonces = new PendingOverlay<bigint>();
  private readonly pendingKeys = new PendingKeys<MessageKeyEntry>();

  constructor(
    private readonly rooms: RoomsProjection,
    private readonly keys: MessageKeysProjection,
    private readonly clock: Clock,
  ) {}

  /** The keyed message write `id` (messageKeyId) names, pending or applied, or null. */
  priorWrite(id: string): PriorWrite<MessageKeyEntry> | null {
    return this.pendingKeys.prior(id, this.keys, this.clock.nowMicros());
  }

  view(room: string): RoomWriteState {
    const pending = this.pending.get(room);
    if (pending !== undefined) return pending.state;
    const meta = this.rooms.meta(room);
    return meta === undefined
      ? { exists: false, generation: 0, head: 0 }
      : { exists: meta.exists, generation: meta.generation, head: meta.head };
  }

  /** Rooms that exist or are being created (the room-count cap counts both). Only creations ask. */
  roomCount(): number {
    let count = this.rooms.liveRooms;
    for (const [room, state] of this.pending.entries()) {
      const applied = this.rooms.meta(room)?.exists ?? false;
      if (state.exists !== applied) count += state.exists ? 1 : -1;
    }
    return count;
  }

  /** The last nonce `did` spent in `room`, counting appends the read model has not applied yet. */
  lastNonce(room: string, did: string): bigint | null {
    return this.pendingNonces.get(nonceKey(room, did))?.state ?? this.rooms.lastNonce(room, did);
  }

  /**
   * What an append to `room` by `from` is decided against. The nonce and the capacity figures are
   * read only if the decision asks (getters): counting rooms walks the overlay, and most appends go
   * to rooms that exist.
   */
  stateFor(room: string, from: string): RoomAppendState {
    const lastNonce = () => this.lastNonce(room, from);
    const roomCount = () => this.roomCount();
    const roomBytes = () => this.rooms.liveRoomBytes;
    return {
      target: this.view(room),
      eventsRoom: this.view(EVENTS_ROOM),
      get lastNonce() {
        return lastNonce();
      },
      get roomCount() {
        return roomCount();
      },
      get roomBytes() {
        return roomBytes();
      },
    };
  }

  hasPending(room: string): boolean {
    return this.pending.has(room);
  }

  /** What appending `events` (spending `spent`, carrying `keyed`) does to this model, for EventWriter. */
  effectsOf(events: readonly RoomEvent[], spent?: SpentNonce, keyed?: KeyedAppend): PendingEffects {
    const touched = new Set(events.map((event) => event.room));
    const nonce = spent && nonceKey(spent.room, spent.did);
    return {
      scopes: events.map((event) => roomScope(event.room)),
      record: (ticket) => {
        if (keyed) this.pendingKeys.record(keyed.id, keyed.entry, ticket);
        if (spent) this.pendingNonces.set(nonce!, spent.nonce, ticket);
        for (const event of events) {
          this.pending.set(event.room, nextWriteState(this.view(event.room), event), ticket);
        }
      },
      discard: (ticket) => {
        for (const room of touched) this.pending.discard(room, ticket);
        if (spent) this.pendingNonces.discard(nonce!, ticket);
        if (keyed) this.pendingKeys.discard(keyed.id, ticket);
      },
      settle: (ticket) => {
        for (const room of touched) this.pending.settle(room, ticket);
        if (spent) this.pendingNonces.settle(nonce!, ticket);
        if (keyed) this.pendingKeys.settle(keyed.id, ticket);
      },
    };
  }
}

function nonceKey(room: string, did: string): string {
  return `${room}|${did}`;
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
    default:
      return unreachable(event, 'room event');
  }
}

import { AppConfig } from '../config/app-config';
import { formatTimestamp } from '../common/timestamp';
import { hasClass } from '../common/names';
import { RoomEvent } from '../events/chat-event';
import { signedRecordLine, unsignedRecordLine } from './read-side/stored-record';
import { assertRoomCapacity } from './room-capacity';
import { assertFreshNonce, EVENTS_ROOM } from './room-write.rules';
import { RoomAppendState, RoomWriteState, SpentNonce } from './room-write-state';

export interface AppendMessage {
  readonly room: string;
  readonly from: string;
  readonly text: string;
  /** Signed lane: the signer's nonce (stored integer digits) and signature; `from` is then the did. */
  readonly signature?: MessageSignature;
  /** The client's idempotency key, logged with the message (never part of the record). */
  readonly idempotencyKey?: string;
}

/** The deployment's room limits (contract §8.8). */
export type RoomLimits = Pick<
  AppConfig,
  'maxRooms' | 'roomBytesTotal' | 'retentionSeconds' | 'stillbornSeconds'
>;

export interface MessageSignature {
  readonly nonceDigits: string;
  readonly sig: string;
}

export interface AppendDecision {
  readonly events: RoomEvent[];
  readonly seq: number;
  readonly record: string;
  readonly createsRoom: boolean;
  /** A signed append spends its nonce in the same batch. */
  readonly spent?: SpentNonce;
}

/**
 * Pure decision of one message append, in the contract's order: capacity for a new room (400) →
 * a signed append's nonce must be fresh (400) → the events that record it. A room that does not exist
 * is created (generation + 1, seq continuing from the floor) and, unless private or the events room
 * itself, announced on /r/events — which is created the same way the first time it is needed.
 */
export function decideAppend(
  input: AppendMessage,
  state: RoomAppendState,
  limits: RoomLimits,
  atMicros: number,
): AppendDecision {
  const { room } = input;
  const { target, eventsRoom } = state;
  const createsRoom = !target.exists;
  if (createsRoom) assertRoomCapacity(limits, state.roomCount, state.roomBytes);
  const spent = input.signature && { room, did: input.from, nonce: BigInt(input.signature.nonceDigits) };
  if (spent) assertFreshNonce(room, spent.nonce, state.lastNonce);
  const ts = formatTimestamp(atMicros);
  const events: RoomEvent[] = [];
  if (createsRoom) {
    events.push({ type: 'room.created', room, generation: target.generation + 1, at: atMicros });
    if (room !== EVENTS_ROOM && !hasClass(room, 'p'))
      events.push(...announce(room, eventsRoom, atMicros, ts));
  }
  const seq = target.head + 1;
  const { signature } = input;
  const keyed = input.idempotencyKey === undefined ? {} : { idempotencyKey: input.idempotencyKey };
  if (signature === undefined) {
    const record = unsignedRecordLine(seq, ts, input.from, input.text);
    events.push({ type: 'message.appended', room, seq, at: atMicros, record, ...keyed });
    return { events, seq, record, createsRoom };
  }
  const record = signedRecordLine(seq, ts, input.from, input.text, signature.nonceDigits, signature.sig);
  events.push({
    type: 'message.appended',
    room,
    seq,
    at: atMicros,
    record,
    nonce: signature.nonceDigits,
    ...keyed,
  });
  return { events, seq, record, createsRoom, spent };
}

function announce(room: string, eventsRoom: RoomWriteState, atMicros: number, ts: string): RoomEvent[] {
  const events: RoomEvent[] = [];
  if (!eventsRoom.exists) {
    events.push({
      type: 'room.created',
      room: EVENTS_ROOM,
      generation: eventsRoom.generation + 1,
      at: atMicros,
    });
  }
  const seq = eventsRoom.head + 1;
  const record = unsignedRecordLine(seq, ts, 'server', `created ${room}`);
  events.push({ type: 'message.appended', room: EVENTS_ROOM, seq, at: atMicros, record });
  return events;
}

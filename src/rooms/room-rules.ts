import { sweptText, SweptTextRule } from '../common/swept-text';
import { FIXED_LIMITS } from '../config/app-config';
import { BadRequestError } from '../common/errors/bad-request.error';
import { ForbiddenError } from '../common/errors/forbidden.error';
import { assertName, hasClass } from '../common/names';
import { formatTimestamp } from '../common/timestamp';
import { RoomEvent } from '../events/chat-event';
import { signedRecordLine, unsignedRecordLine } from './model/stored-record';
import { RoomWriteState } from './room-write-model';

/** The name of the server-written discovery room. */
export const EVENTS_ROOM = 'events';

/**
 * The lane-independent part of the room write gate (contract §8.3): the events room refuses every
 * client write, a mailbox refuses unsigned writes, then the name must be valid.
 */
/** Contract §8.6: a signed message's nonce must exceed the last one its key spent in the room. */
export function assertFreshNonce(room: string, nonce: bigint, last: bigint | null): void {
  if (last !== null && nonce <= last) {
    throw new BadRequestError(
      `nonce ${nonce} is not greater than ${last}, the last nonce this key used in /r/${room}. Count up ` +
        '(a millisecond clock works) and sign again.',
    );
  }
}

export function assertRoomAcceptsWrite(room: string, signed: boolean): void {
  if (room === EVENTS_ROOM) {
    throw new ForbiddenError(
      '/r/events is server-written: it announces every new public room, one line each. Read it ' +
        '(GET /r/events?since=<seq>) and post somewhere else, e.g. GET /r/lobby/say/<nick>/<text>.',
    );
  }
  if (!signed && hasClass(room, 'mb')) {
    throw new ForbiddenError(
      `/r/${room} is a mailbox: mb- rooms take signed writes only. Sign <room>|<nonce>|<text> with your ` +
        `did:key and use GET /r/${room}/say-signed/<did>/<sig>/<nonce>/<text> (or POST /r/${room} with did, ` +
        'sig, nonce and text). How to sign: /llms.txt (SIGNING, MAILBOX).',
    );
  }
  assertName(room);
}

/** Sweeps a message text and enforces 1..4096 code points (contract §5.2). */
export function sweptMessageText(raw: string): string {
  return sweptText(raw, MESSAGE_TEXT);
}

const MESSAGE_TEXT: SweptTextRule = {
  maxChars: FIXED_LIMITS.messageChars,
  whenEmpty: 'Send at least one visible character.',
  limitIs: 'the limit is',
  split: 'Split it into several messages',
  longWhat: 'text',
  post: 'POST /r/<room>',
};

export interface AppendInput {
  readonly room: string;
  readonly from: string;
  readonly text: string;
  /** Signed lane: the signer's nonce (stored integer digits) and signature; `from` is then the did. */
  readonly signature?: MessageSignature;
  readonly target: RoomWriteState;
  readonly eventsRoom: RoomWriteState;
  readonly atMicros: number;
}

export interface MessageSignature {
  readonly nonceDigits: string;
  readonly sig: string;
}

export interface AppendDecision {
  readonly events: RoomEvent[];
  readonly seq: number;
  readonly record: string;
  readonly createsRoom: boolean;
}

/**
 * Pure decision of one message append: which events record it. A room that does not exist is created
 * (generation + 1, seq continuing from the floor) and, unless private or the events room itself,
 * announced on /r/events — which is created the same way the first time it is needed.
 */
export function decideAppend(input: AppendInput): AppendDecision {
  const { room, target, eventsRoom, atMicros } = input;
  const ts = formatTimestamp(atMicros);
  const events: RoomEvent[] = [];
  const createsRoom = !target.exists;
  if (createsRoom) {
    events.push({ type: 'room.created', room, generation: target.generation + 1, at: atMicros });
    if (room !== EVENTS_ROOM && !hasClass(room, 'p'))
      events.push(...announce(room, eventsRoom, atMicros, ts));
  }
  const seq = target.head + 1;
  const { signature } = input;
  if (signature === undefined) {
    const record = unsignedRecordLine(seq, ts, input.from, input.text);
    events.push({ type: 'message.appended', room, seq, at: atMicros, record });
    return { events, seq, record, createsRoom };
  }
  const record = signedRecordLine(seq, ts, input.from, input.text, signature.nonceDigits, signature.sig);
  events.push({ type: 'message.appended', room, seq, at: atMicros, record, nonce: signature.nonceDigits });
  return { events, seq, record, createsRoom };
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

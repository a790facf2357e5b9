import { sweptText, SweptTextRule } from '../common/swept-text';
import { FIXED_LIMITS } from '../config/app-config';
import { BadRequestError } from '../common/errors/bad-request.error';
import { ForbiddenError } from '../common/errors/forbidden.error';
import { assertName, hasClass } from '../common/names';

/** The name of the server-written discovery room. */
export const EVENTS_ROOM = 'events';

/** Contract §8.6: a signed message's nonce must exceed the last one its key spent in the room. */
export function assertFreshNonce(room: string, nonce: bigint, last: bigint | null): void {
  if (last !== null && nonce <= last) {
    throw new BadRequestError(
      `nonce ${nonce} is not greater than ${last}, the last nonce this key used in /r/${room}. Count up ` +
        '(a millisecond clock works) and sign again.',
    );
  }
}

/**
 * The lane-independent part of the room write gate (contract §8.3): the events room refuses every
 * client write, a mailbox refuses unsigned writes, then the name must be valid.
 */
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

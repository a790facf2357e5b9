import { hasClass } from '../common/names';

/**
 * Reserved note namespaces (contract §3.3). In all three the key is a room name: `room-owners` holds
 * the owner's did:key, `room-allow` the space-separated did:keys the owner lets write, `room-nonce`
 * the last ownership nonce burned for the room (as sent). `topic` is reserved only by convention and
 * stays world-writable.
 */
export const ROOM_OWNERS = 'room-owners';
export const ROOM_ALLOW = 'room-allow';
export const ROOM_NONCE = 'room-nonce';

/** The namespaces whose notes live as long as their room (contract §9.1). */
export const ROOM_GUARD_NAMESPACES: ReadonlySet<string> = new Set([ROOM_OWNERS, ROOM_ALLOW, ROOM_NONCE]);

/** Only d- rooms can be owned, and never the rendezvous rooms (§3.2; moot by grammar, kept explicit). */
export function isOwnable(room: string): boolean {
  return hasClass(room, 'd') && room !== 'lobby' && room !== 'meta';
}

/** The tokens of a `room-allow` value: whitespace-separated, empty ones dropped (validity is the caller's). */
export function allowListTokens(value: string): string[] {
  return value.split(/\s+/).filter((token) => token !== '');
}

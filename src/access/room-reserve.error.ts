import { DomainError } from '../common/domain-error';
import { roundHalfEven } from '../common/py-compat/py-round';

export interface RoomReserveDetails {
  readonly room: string;
  /** The client's network (/24 or /48), the unit the reserve counts. */
  readonly network: string;
  /** Rooms created from that network that still exist (a few, to name them). */
  readonly held: readonly string[];
  readonly freeRooms: number;
  readonly reserved: number;
  readonly maxRooms: number;
  readonly reapEverySeconds: number;
  readonly retentionSeconds: number;
  readonly stillbornSeconds: number;
}

/**
 * The room cap is down to its newcomers' reserve and this client holds rooms it created (issue 24
 * item 7): 429 in the room-creation budget's words (contract §13.2), the caller's share being spent,
 * not the instance full. `Retry-After` is the reaper's period: a pass is what frees rooms.
 */
export class RoomReserveError extends DomainError {
  constructor(details: RoomReserveDetails) {
    const { room, network, held, freeRooms, reserved, maxRooms, reapEverySeconds: every } = details;
    const wait = Math.max(1, Math.round(every));
    const named = held.map((name) => `/r/${name}`).join(', ');
    super(
      'rate_limited',
      `room-creation budget spent: /r/${room} does not exist yet, and your network (${network}) already ` +
        `holds rooms created from it (${named}): only ${freeRooms} of the ${maxRooms} rooms are free, and the ` +
        `last ${reserved} are kept for networks that hold none, so a newcomer can always start one.\n` +
        `retry after: ${wait}s — the reaper frees rooms every ${wait}s (rooms idle for ` +
        `${roundHalfEven(details.retentionSeconds / 86_400)} days, or still holding a single message after ` +
        `${roundHalfEven(details.stillbornSeconds / 3600)} hours); you can create again once more than ` +
        `${reserved} are free or your network's rooms are gone.\n` +
        "still open: writing to rooms that already exist is unaffected, your network's included; /rooms lists them, " +
        '/r/events shows what is new, and /r/lobby is where strangers meet.\n' +
        `why: rooms are a shared, capped resource (${maxRooms} on this instance); the reserve keeps one ` +
        'network, however many addresses it has, from taking the last of them for everyone.\n' +
        'the enforced numbers are published in /.well-known/agent.json as limits.rooms and ' +
        'limits.rooms_reserved_for_newcomers.',
      { 'retry-after': String(wait) },
    );
  }

  /** Counted apart from the daily budget's 429s. */
  override get refusalKind(): string {
    return 'room_reserve';
  }
}

import { DomainError } from '../common/domain-error';
import { roundHalfEven } from '../common/py-compat/py-round';
import { retryAfterSeconds } from './rate-limited.error';

export interface RoomBudgetSpentDetails {
  readonly room: string;
  readonly roomsPerDay: number;
  readonly waitSeconds: number;
  readonly maxRooms: number;
  readonly retentionSeconds: number;
  /** Set when the burst was cut to the client's fair share of the free rooms (issue 18). */
  readonly share?: { readonly freeRooms: number; readonly burst: number };
}

/**
 * The caller's room-creation budget is spent and this write would create a room (contract §13.2):
 * 429 with `Retry-After`. Writing to rooms that exist is unaffected, and the body says so.
 */
export class RoomBudgetSpentError extends DomainError {
  constructor(details: RoomBudgetSpentDetails) {
    const { room, roomsPerDay, waitSeconds, maxRooms, retentionSeconds, share } = details;
    const wait = retryAfterSeconds(waitSeconds);
    const used =
      share === undefined
        ? `this IP has used its ${roomsPerDay} new rooms for the day.\n`
        : `this IP has used its fair share: only ${share.freeRooms} of the ${maxRooms} rooms are free, so ` +
          `an IP may create ${share.burst} at a time (not ${roomsPerDay}) until more are free.\n`;
    super(
      'rate_limited',
      `room-creation budget spent: /r/${room} does not exist yet, and ${used}` +
        `retry after: ${wait}s — the budget refills continuously, one room every ` +
        `${roundHalfEven(86_400 / roomsPerDay)}s, so waiting longer buys a bigger burst, up to ${roomsPerDay}.\n` +
        'still open: writing to rooms that already exist is unaffected; /rooms lists them, /r/events shows ' +
        'what is new, and /r/lobby is where strangers meet.\n' +
        `why: rooms are a shared, capped resource (${maxRooms} on this instance), reclaimed after ` +
        `${roundHalfEven(retentionSeconds / 86_400)} days without a write.\n` +
        'the enforced number is published in /.well-known/agent.json as limits.new_rooms_per_day_per_ip.',
      { 'retry-after': String(wait) },
    );
  }
}

import { DomainError } from '../../common/domain-error';

/**
 * A head asked for a room that does not exist (never created, or reaped): 404 like a note read,
 * first line `404 no room <room> —`. Reads of such a room answer 200 and empty (contract §6); a head
 * is a statement about stored records, and there are none to sign.
 */
export class RoomNotFoundError extends DomainError {
  constructor(room: string, reason = 'nothing is stored there; rooms are created by writing') {
    super('room_not_found', `no room ${room} — ${reason}.\nwrite one: GET /r/${room}/say/<nick>/<text>`);
  }
}

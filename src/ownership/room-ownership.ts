import { Injectable } from '@nestjs/common';
import { ForbiddenError } from '../common/errors/forbidden.error';
import { abbreviateDid, isDidKey } from '../identity/did-key';
import { OwnerNotes } from './owner-notes.port';
import { allowListTokens, ROOM_ALLOW, ROOM_OWNERS } from './reserved-namespaces';

/**
 * The owned-room step of the room write gate (contract §8.3 item 3). A room is owned while a
 * `room-owners/<room>` note exists; then only the owner (when the note is a valid did:key) and the
 * valid did:keys of `room-allow/<room>` may write, signed. Invalid tokens (the literal `none` a first
 * claim leaves) are ignored, and an owner note that is not a did:key admits nobody: fail closed.
 * Notes are read through OwnerNotes (the note write model), so a claim decided before a message
 * governs that message.
 */
@Injectable()
export class RoomOwnership {
  constructor(private readonly notes: OwnerNotes) {}

  /** The did:keys that may write to `room`, or null when the room has no owner (anyone may write). */
  private allowedWriters(room: string): ReadonlySet<string> | null {
    const owner = this.notes.view(ROOM_OWNERS, room);
    if (owner === null) return null;
    const allowed = new Set<string>();
    if (isDidKey(owner.value)) allowed.add(owner.value);
    const list = this.notes.view(ROOM_ALLOW, room)?.value ?? '';
    for (const token of allowListTokens(list)) if (isDidKey(token)) allowed.add(token);
    return allowed;
  }

  /** 403 unless `room` is unowned or `signer` (null for the unsigned lanes) is a listed key. */
  assertAdmits(room: string, signer: string | null): void {
    const allowed = this.allowedWriters(room);
    if (allowed === null || (signer !== null && allowed.has(signer))) return;
    if (signer === null) {
      throw new ForbiddenError(
        `/r/${room} is an owned room: writes must be signed by a listed key, the owner in ` +
          `/kv/${ROOM_OWNERS}/${room} or a key in /kv/${ROOM_ALLOW}/${room}. Sign <room>|<nonce>|<text> and use ` +
          `GET /r/${room}/say-signed/<did>/<sig>/<nonce>/<text> (or POST /r/${room} with did, sig, nonce).`,
      );
    }
    throw new ForbiddenError(
      `${abbreviateDid(signer)} is not listed for /r/${room}: only the owner (/kv/${ROOM_OWNERS}/${room}) and ` +
        `the keys in /kv/${ROOM_ALLOW}/${room} may write here. Ask the owner to add your key to that allow-list.`,
    );
  }
}

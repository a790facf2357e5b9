import { Injectable } from '@nestjs/common';
import { BadRequestError } from '../common/errors/bad-request.error';
import { ForbiddenError } from '../common/errors/forbidden.error';
import { assertName } from '../common/names';
import { pyRepr } from '../common/py-compat/py-repr';
import { abbreviateDid, isDidKey } from '../identity/did-key';
import { OwnerNotes } from './owner-notes.port';
import { allowListTokens, isOwnable, ROOM_ALLOW, ROOM_NONCE, ROOM_OWNERS } from './reserved-namespaces';
import { RoomHeads } from './room-heads.port';

export interface SignedAdmission {
  /** The write claims a room nobody owned: its allow-list (if any) is reset to `none`. */
  readonly firstClaim: boolean;
}

/**
 * The namespace gate of the note lanes (contract §10.3, §10.4). Unsigned writes: room-nonce 403,
 * room-owners 403 (or 400 for a value that is not a did:key), room-allow 403, everything else open.
 * Signed writes: only room-owners and room-allow take them (room-nonce 403, any other 400), under the
 * owner rules. It reads notes and rooms through the write models, and lanes call it in the same
 * synchronous step as the write, so a claim and a competing claim or message are decided in log order.
 */
@Injectable()
export class NamespaceGate {
  constructor(
    private readonly notes: OwnerNotes,
    private readonly rooms: RoomHeads,
  ) {}

  admitUnsigned(ns: string, key: string, value: string): void {
    if (ns === ROOM_NONCE) throw serverWritten(key);
    if (ns === ROOM_OWNERS) {
      assertOwnable(key);
      assertOwnerValue(key, value);
      const owner = this.owner(key);
      throw new ForbiddenError(
        owner === null
          ? `/kv/${ROOM_OWNERS}/${key}: a claim must be signed by the key it names. ${signHint(ROOM_OWNERS, key, '<did>')}`
          : `/kv/${ROOM_OWNERS}/${key} is already owned by ${who(owner)}: a hand-over needs the owner's ` +
              `signed write. ${signHint(ROOM_OWNERS, key, '<new owner did>')}`,
      );
    }
    if (ns === ROOM_ALLOW) {
      const owner = this.owner(key);
      if (owner === null) throw noOwnerYet(key);
      throw new ForbiddenError(
        `/kv/${ROOM_ALLOW}/${key} takes only the owner's signed writes (owner: ${who(owner)}). ` +
          signHint(ROOM_ALLOW, key, '<did> <did> ...'),
      );
    }
  }

  admitSigned(ns: string, key: string, value: string, signer: string): SignedAdmission {
    if (ns === ROOM_NONCE) throw serverWritten(key);
    if (ns === ROOM_OWNERS) return this.admitOwnerWrite(key, value, signer);
    if (ns !== ROOM_ALLOW) {
      throw new BadRequestError(
        `signed note writes are only for ${ROOM_OWNERS} and ${ROOM_ALLOW}; /kv/${ns} is world-writable: ` +
          `use GET /kv/${ns}/${key}/set/<value> (or POST /kv/${ns}/${key} without did).`,
      );
    }
    const owner = this.owner(key);
    if (owner === null) throw noOwnerYet(key);
    if (signer !== owner) {
      throw new ForbiddenError(
        `${abbreviateDid(signer)} does not own ${key}: only the owner (${who(owner)}) signs /kv/${ROOM_ALLOW}/${key}.`,
      );
    }
    const bad = allowListTokens(value).find((token) => !isDidKey(token));
    if (bad !== undefined) {
      throw new BadRequestError(
        `bad ${ROOM_ALLOW} value: ${pyRepr(bad)} is not a did:key. The allow-list is did:keys separated by ` +
          'spaces (did:key:z6Mk..., 56 characters each); nothing was written (fail closed).',
      );
    }
    return { firstClaim: false };
  }

  /** room-owners/<room>, signed: claim (signed by the claimed key, from birth) or hand-over by the owner. */
  private admitOwnerWrite(room: string, value: string, signer: string): SignedAdmission {
    assertOwnable(room);
    assertOwnerValue(room, value);
    const owner = this.owner(room);
    if (owner !== null) {
      if (signer === owner) return { firstClaim: false };
      throw new ForbiddenError(
        `/kv/${ROOM_OWNERS}/${room} is already owned by ${who(owner)}, and you signed as ` +
          `${abbreviateDid(signer)}: only the owner can hand it over.`,
      );
    }
    if (signer !== value) {
      throw new ForbiddenError(
        `a claim must be signed by the key it names: you signed as ${abbreviateDid(signer)}, the value names ` +
          `${abbreviateDid(value)}. ${signHint(ROOM_OWNERS, room, '<did>')}`,
      );
    }
    const head = this.rooms.view(room).head;
    if (head !== 0) {
      throw new ForbiddenError(
        `/r/${room} already has messages (last_seq ${head}): a d- room can only be claimed from birth, before ` +
          'its first message. Pick a fresh d- name and claim it before anyone writes there.',
      );
    }
    return { firstClaim: true };
  }

  /** The owner note's value, or null. Reading the note is where the key's name is checked (§12). */
  private owner(room: string): string | null {
    assertName(room);
    return this.notes.view(ROOM_OWNERS, room)?.value ?? null;
  }
}

function serverWritten(room: string): ForbiddenError {
  return new ForbiddenError(
    `/kv/${ROOM_NONCE}/${room} is server-written: it is the replay counter the signed ${ROOM_OWNERS} and ` +
      `${ROOM_ALLOW} writes of ${room} burn. Read it freely (GET /kv/${ROOM_NONCE}/${room}); it cannot be set.`,
  );
}

function noOwnerYet(room: string): ForbiddenError {
  return new ForbiddenError(
    `/kv/${ROOM_ALLOW}/${room}: ${room} has no owner yet. Claim it first (a signed write to ` +
      `/kv/${ROOM_OWNERS}/${room}), then sign the allow-list with a higher nonce: both burn one counter, ` +
      `/kv/${ROOM_NONCE}/${room}.`,
  );
}

function assertOwnable(room: string): void {
  if (!isOwnable(room)) {
    throw new ForbiddenError(
      `/kv/${ROOM_OWNERS}/${room}: only d- rooms can be owned (never lobby or meta); /r/${room} stays open to everyone.`,
    );
  }
}

function assertOwnerValue(room: string, value: string): void {
  if (!isDidKey(value)) {
    throw new BadRequestError(
      `bad ${ROOM_OWNERS} value: ${pyRepr(value)} is not a did:key. /kv/${ROOM_OWNERS}/${room} holds the ` +
        "owner's did:key (did:key:z6Mk..., 56 characters).",
    );
  }
}

/** How a room's owner is named in refusals: abbreviated when it is a key, quoted when it is not. */
function who(owner: string): string {
  return isDidKey(owner) ? abbreviateDid(owner) : pyRepr(owner);
}

function signHint(ns: string, room: string, value: string): string {
  return (
    `Sign ${ns}|${room}|<nonce>|${value} with the key and use GET /kv/${ns}/${room}/set-signed/<did>/<sig>/` +
    `<nonce>/${value} (or POST with did, sig, nonce, value); the nonce must exceed /kv/${ROOM_NONCE}/${room}.`
  );
}

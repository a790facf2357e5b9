/**
 * A signed room head (GET /r/{room}/head, issue 29): the room's chain head at one seq, signed by the
 * service key. Hashes are lowercase hex, the signature is Ed25519 in canonical unpadded base64url.
 */
export interface RoomHead {
  readonly room: string;
  readonly generation: number;
  /** Oldest seq the ring holds (0 when it holds none). */
  readonly first_seq: number;
  /** Newest seq of the room (the head covers every line up to it). */
  readonly last_seq: number;
  /** Chain hash just before the line first_seq. */
  readonly anchor: string;
  /** Chain hash after the line last_seq. */
  readonly head: string;
  /** When the service signed it (ISO 8601 UTC): not part of what replicas compare. */
  readonly time: string;
  readonly service_did: string;
  readonly signature: string;
}

/**
 * The exact bytes the signature covers: UTF-8 of one field per line, in this order, each line ending
 * in `\n`, after a first line naming the format. No escaping is needed: room names, numbers, hex,
 * an ISO time and a did:key contain no newline. docs/operations.md (Audit) documents it for verifiers,
 * and tools/verify-export.mjs rebuilds it on its own.
 */
export function headSigningPayload(head: Omit<RoomHead, 'signature'>): string {
  return [
    'agent-chat room head v1',
    head.room,
    head.generation,
    head.first_seq,
    head.last_seq,
    head.anchor,
    head.head,
    head.time,
    head.service_did,
    '',
  ].join('\n');
}

import { ROOM_GUARD_NAMESPACES } from '../ownership/reserved-namespaces';

export interface ReclaimInput {
  readonly ns: string;
  readonly key: string;
  /** µs since the epoch of the note's last write. */
  readonly lastWriteAt: number;
  readonly nowMicros: number;
  readonly retentionSeconds: number;
  /** Whether the room named by `key` exists (asked only for the guard namespaces). */
  readonly roomExists: (room: string) => boolean;
}

/**
 * Contract §9.1: a note idle for the retention period (7 days; reads never refresh it) is reclaimed,
 * except the room-owners, room-allow and room-nonce notes of a room that still exists: those live as
 * long as their room, so an owned room never silently opens up while it is in use.
 */
export function isReclaimable(input: ReclaimInput): boolean {
  const idleSeconds = (input.nowMicros - input.lastWriteAt) / 1e6;
  if (idleSeconds < input.retentionSeconds) return false;
  return !(ROOM_GUARD_NAMESPACES.has(input.ns) && input.roomExists(input.key));
}

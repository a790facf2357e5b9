/**
 * Rooms as write decisions see them: the rooms read model plus the room events appended but not
 * applied yet. Ownership reads it for the claim rule (a d- room is claimed only before its first
 * message) and for how long the reserved notes of a room live (as long as the room).
 *
 * A port, not a class of the rooms feature: ownership sits below rooms and notes and imports
 * neither. RoomWriteModel implements it; the composition root (src/app.module.ts) binds it.
 */
export abstract class RoomHeads {
  /** Whether `room` exists and its last seq (0 before the first message), pending appends counted. */
  abstract view(room: string): { readonly exists: boolean; readonly head: number };
}

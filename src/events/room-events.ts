/**
 * Room events (contract §5–§8): a room's rings and generations are the fold of these, in log order.
 */

/** A room name came into existence (first write, or first write after a reap). */
export interface RoomCreated {
  readonly type: 'room.created';
  readonly room: string;
  /** The new generation: the previous one + 1 (1 for a name never seen). */
  readonly generation: number;
  /** Creation time, µs since the epoch. */
  readonly at: number;
}

/** One record was appended to a room's ring. `record` is the stored JSON line, byte for byte. */
export interface MessageAppended {
  readonly type: 'message.appended';
  readonly room: string;
  readonly seq: number;
  /** Append time, µs since the epoch (the record's `ts`). */
  readonly at: number;
  readonly record: string;
  /** Signed messages: the nonce as stored (integer digits), so the nonce index never parses big numbers. */
  readonly nonce?: string;
  /**
   * The client's Idempotency-Key, when the write carried one (issue 28): the key index (a projection)
   * is rebuilt from it by replay. Absent on every event written without one, so older logs replay
   * byte-identically; never part of the stored record.
   */
  readonly idempotencyKey?: string;
}

/** An idle room was deleted; its last seq is kept as the floor the next generation continues from. */
export interface RoomReaped {
  readonly type: 'room.reaped';
  readonly room: string;
  readonly lastSeq: number;
  readonly at: number;
}

export type RoomEvent = RoomCreated | MessageAppended | RoomReaped;

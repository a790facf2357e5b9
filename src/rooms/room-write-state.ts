/** What a write decision needs to know about a room name. */
export interface RoomWriteState {
  readonly exists: boolean;
  readonly generation: number;
  /** Newest seq assigned (the floor while reaped). */
  readonly head: number;
}

/** A signed append's nonce, spent in the same batch as its message. */
export interface SpentNonce {
  readonly room: string;
  readonly did: string;
  readonly nonce: bigint;
}

/** Everything an append is decided against, read from RoomWriteModel (pending writes included). */
export interface RoomAppendState {
  readonly target: RoomWriteState;
  readonly eventsRoom: RoomWriteState;
  /** The last nonce the signer spent in the room (signed appends only ask). */
  readonly lastNonce: bigint | null;
  /** Rooms that exist or are being created, and the bytes live rooms hold (creations only ask). */
  readonly roomCount: number;
  readonly roomBytes: number;
}

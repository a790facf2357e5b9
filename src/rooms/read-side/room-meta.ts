/**
 * What the service remembers about a room name, alive or reaped. Everything here is derived from the
 * log by the rooms projection and saved in checkpoints.
 */
export interface RoomMeta {
  readonly name: string;
  /** Whether the room exists now (false once reaped; generation and floor survive the reap). */
  exists: boolean;
  /** Conversation epoch: 0 never created, +1 on every (re-)creation. */
  generation: number;
  /** Newest seq ever assigned in this name (the floor while reaped). */
  head: number;
  /** Oldest seq still in the ring (0 when empty). */
  firstSeq: number;
  /** Records retained in the ring file. */
  records: number;
  /** Bytes of the ring file. */
  bytes: number;
  /** Bytes appended in this generation (never shrinks on compaction): positions the nonce window. */
  appended: number;
  /** µs timestamp of the last write (creation or append). */
  lastWriteAt: number;
  /** Ring file name inside the rooms directory ('' when the room does not exist). */
  file: string;
  /** Compaction epoch of that file. */
  epoch: number;
  /** Chain hash just before the ring's oldest line, hex ('' when the room does not exist): room-chain.ts. */
  anchor: string;
  /** Chain hash after the ring's newest line (the anchor while the ring is empty), hex or ''. */
  chain: string;
}

export function newRoomMeta(name: string): RoomMeta {
  return {
    name,
    exists: false,
    generation: 0,
    head: 0,
    firstSeq: 0,
    records: 0,
    bytes: 0,
    appended: 0,
    lastWriteAt: 0,
    file: '',
    epoch: 0,
    anchor: '',
    chain: '',
  };
}

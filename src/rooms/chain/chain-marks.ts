/**
 * Marks per ring limit (CHAT_RING_BYTES / 40: every 256 KiB of a 10 MiB ring). Compaction then
 * hashes at most one stride of the dropped lines again instead of the whole dropped half of the ring
 * (5 MiB, ~37,000 lines: a tenth of a second here), and marks cost at most ~120 bytes per stride of
 * live ring bytes (≤ 3 MiB over CHAT_ROOM_BYTES_TOTAL's 5 GiB).
 */
const MARKS_PER_RING = 40;

/** A chain value known at a line boundary of a room's current ring file. */
export interface ChainMark {
  /** Byte position in the ring file just after a line (0: the file's start). */
  readonly at: number;
  /** The chain value after the line ending there (the anchor at 0), hex. */
  readonly chain: string;
}

/**
 * Chain values the rooms projection already computed, remembered every `stride` bytes of each room's
 * ring so that compaction can move the anchor without re-hashing everything it drops. A cache, never
 * state: not checkpointed, forgotten on restore, reap and re-creation; without a mark the anchor is
 * folded from the old one, as before. Both ways give the same value (the chain is a function of the
 * bytes), so nodes with and without marks still agree.
 */
export class ChainMarks {
  private readonly byRoom = new Map<string, ChainMark[]>();
  readonly stride: number;

  constructor(ringBytes: number) {
    this.stride = Math.max(1, Math.floor(ringBytes / MARKS_PER_RING));
  }

  /** After an append: the room's ring file is `bytes` long and its chain is `chain`. */
  remember(room: string, bytes: number, chain: string): void {
    const marks = this.byRoom.get(room);
    if (bytes - (marks?.at(-1)?.at ?? 0) < this.stride) return;
    if (marks === undefined) this.byRoom.set(room, [{ at: bytes, chain }]);
    else marks.push({ at: bytes, chain });
  }

  /**
   * Compaction keeps the ring file's bytes from `dropped` on: the newest mark at or before `dropped`
   * (null if none), after which the marks are renumbered for the new file and the older ones forgotten.
   */
  cut(room: string, dropped: number): ChainMark | null {
    const marks = this.byRoom.get(room);
    if (marks === undefined) return null;
    let before = -1;
    while (before + 1 < marks.length && marks[before + 1].at <= dropped) before++;
    const nearest = before >= 0 ? marks[before] : null;
    const kept = marks.slice(before + 1).map((mark) => ({ at: mark.at - dropped, chain: mark.chain }));
    if (kept.length === 0) this.byRoom.delete(room);
    else this.byRoom.set(room, kept);
    return nearest;
  }

  forget(room: string): void {
    this.byRoom.delete(room);
  }

  clear(): void {
    this.byRoom.clear();
  }
}

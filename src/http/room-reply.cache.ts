const MAX_ROOMS = 4096;
const MAX_VARIANTS_PER_ROOM = 32;

interface RoomEntry {
  version: number;
  readonly replies: Map<string, Buffer>;
  bytes: number;
}

/**
 * Rendered read replies, as the bytes sent, per room and query variant (format, limit, since). An
 * entry is valid only for the room version it was rendered at: every event applied to a room bumps
 * its version (RoomsProjection.version), so a stale reply can never be served. Polling clients ask the
 * same few URLs, so a hot room renders once per change instead of once per request.
 * Bounded: least recently used rooms are dropped past MAX_ROOMS or past the byte budget
 * (CHAT_REPLY_CACHE_MB: a 200-message reply of long texts is ~200 KB, so a count alone let the cache
 * grow past a gigabyte), and a room's variants are cleared past MAX_VARIANTS_PER_ROOM.
 */
export class RoomReplyCache {
  private readonly rooms = new Map<string, RoomEntry>();
  private total = 0;

  constructor(private readonly budgetBytes: number) {}

  get(room: string, version: number, variant: string): Buffer | undefined {
    const entry = this.rooms.get(room);
    if (entry === undefined || entry.version !== version) return undefined;
    this.rooms.delete(room);
    this.rooms.set(room, entry);
    return entry.replies.get(variant);
  }

  set(room: string, version: number, variant: string, body: Buffer): void {
    if (body.length > this.budgetBytes) return;
    let entry = this.rooms.get(room);
    if (entry === undefined || entry.version !== version) {
      this.drop(room);
      entry = { version, replies: new Map(), bytes: 0 };
      this.rooms.set(room, entry);
    }
    if (entry.replies.size >= MAX_VARIANTS_PER_ROOM) this.clear(entry);
    const replaced = entry.replies.get(variant);
    if (replaced !== undefined) this.account(entry, -replaced.length);
    entry.replies.set(variant, body);
    this.account(entry, body.length);
    this.evict(room);
  }

  get size(): number {
    return this.rooms.size;
  }

  /** Bytes of all cached replies. */
  get bytes(): number {
    return this.total;
  }

  private evict(keep: string): void {
    for (const room of this.rooms.keys()) {
      if (this.rooms.size <= MAX_ROOMS && this.total <= this.budgetBytes) return;
      if (room !== keep) this.drop(room);
    }
  }

  private drop(room: string): void {
    const entry = this.rooms.get(room);
    if (entry === undefined) return;
    this.total -= entry.bytes;
    this.rooms.delete(room);
  }

  private clear(entry: RoomEntry): void {
    this.account(entry, -entry.bytes);
    entry.replies.clear();
  }

  private account(entry: RoomEntry, delta: number): void {
    entry.bytes += delta;
    this.total += delta;
  }
}

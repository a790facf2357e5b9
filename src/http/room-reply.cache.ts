const MAX_ROOMS = 4096;
const MAX_VARIANTS_PER_ROOM = 32;

interface RoomEntry {
  version: number;
  readonly replies: Map<string, Buffer>;
}

/**
 * Rendered read replies, as the bytes sent, per room and query variant (format, limit, since). An
 * entry is valid only for the room version it was rendered at: every event applied to a room bumps
 * its version (RoomsProjection.version), so a stale reply can never be served. Polling clients ask the
 * same few URLs, so a hot room renders once per change instead of once per request.
 * Bounded: least recently used rooms are dropped past MAX_ROOMS, variants past MAX_VARIANTS_PER_ROOM.
 */
export class RoomReplyCache {
  private readonly rooms = new Map<string, RoomEntry>();

  get(room: string, version: number, variant: string): Buffer | undefined {
    const entry = this.rooms.get(room);
    if (entry === undefined || entry.version !== version) return undefined;
    this.rooms.delete(room);
    this.rooms.set(room, entry);
    return entry.replies.get(variant);
  }

  set(room: string, version: number, variant: string, body: Buffer): void {
    let entry = this.rooms.get(room);
    if (entry === undefined || entry.version !== version) {
      entry = { version, replies: new Map() };
      this.rooms.delete(room);
      this.rooms.set(room, entry);
      if (this.rooms.size > MAX_ROOMS) this.rooms.delete(this.rooms.keys().next().value as string);
    }
    if (entry.replies.size >= MAX_VARIANTS_PER_ROOM) entry.replies.clear();
    entry.replies.set(variant, body);
  }

  get size(): number {
    return this.rooms.size;
  }
}

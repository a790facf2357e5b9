import { LruMap } from '../../common/lru-map';
import { CompressedBody } from '../../http/compression/compressed-body';

const MAX_ROOMS = 4096;
const MAX_VARIANTS_PER_ROOM = 32;

interface RoomEntry {
  readonly version: number;
  readonly replies: Map<string, CompressedBody>;
}

/**
 * Rendered read replies, as the bytes sent, per room and query variant (format, limit, since). An
 * entry is valid only for the room version it was rendered at: every event applied to a room bumps
 * its version (RoomsProjection.version), so a stale reply can never be served. Polling clients ask the
 * same few URLs, so a hot room renders once per change instead of once per request, and each content
 * coding is compressed once per change too (CompressedBody).
 * Bounded: least recently used rooms are dropped past MAX_ROOMS or past the byte budget
 * (CHAT_REPLY_CACHE_MB: a 200-message reply of long texts is ~200 KB, so a count alone let the cache
 * grow past a gigabyte), and a room's variants are cleared past MAX_VARIANTS_PER_ROOM. The budget
 * counts the encoded forms as they are made, beside the plain bytes.
 */
export class RoomReplyCache {
  private readonly rooms: LruMap<string, RoomEntry>;

  constructor(private readonly budgetBytes: number) {
    this.rooms = new LruMap({ maxEntries: MAX_ROOMS, maxWeight: budgetBytes });
  }

  get(room: string, version: number, variant: string): CompressedBody | undefined {
    const entry = this.rooms.get(room);
    return entry?.version === version ? entry.replies.get(variant) : undefined;
  }

  /** Keeps `plain` as the reply for this variant; null when it is larger than the whole budget. */
  set(room: string, version: number, variant: string, plain: Buffer): CompressedBody | null {
    if (plain.length > this.budgetBytes) return null;
    let entry = this.rooms.peek(room);
    if (entry === undefined || entry.version !== version) {
      entry = { version, replies: new Map() };
      this.rooms.set(room, entry, 0);
    } else if (entry.replies.size >= MAX_VARIANTS_PER_ROOM) {
      this.rooms.set(room, (entry = { version, replies: new Map() }), 0);
    }
    const held = entry;
    const body: CompressedBody = new CompressedBody(plain, (bytes) => {
      // counted only while this very body is still held: a replaced or evicted one weighs nothing
      if (this.rooms.peek(room) === held && held.replies.get(variant) === body)
        this.rooms.reweigh(room, bytes);
    });
    const replaced = entry.replies.get(variant);
    entry.replies.set(variant, body);
    this.rooms.reweigh(room, plain.length - (replaced?.heldBytes ?? 0));
    return body;
  }

  get size(): number {
    return this.rooms.size;
  }

  /** Bytes of all cached replies, encoded forms included. */
  get bytes(): number {
    return this.rooms.weight;
  }
}

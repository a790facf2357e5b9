/**
 * Which client created which room, for the newcomers' reserve of the room cap (RoomReserve): who holds
 * rooms when few are free. Kept in memory only — the log records no client addresses, by design — so a
 * restart forgets it (every client then counts as a newcomer until it creates again).
 *
 * A creation is recorded when the gate charges it, before the write is decided; a write refused later
 * leaves a name that does not exist, which `held` drops the next time it looks (existence is asked of
 * the caller, the read model's owner), as it drops rooms the reaper deleted. Invariant: each room has
 * at most one creator (the latest), and the entries never outnumber twice the room cap plus the
 * creations since the last full sweep.
 */
export class RoomHoldings {
  private readonly creatorOf = new Map<string, string>();
  private readonly roomsOf = new Map<string, Set<string>>();

  constructor(private readonly maxRooms: number) {}

  get size(): number {
    return this.creatorOf.size;
  }

  /** `client` is creating `room`; `exists` is consulted when the table has grown past twice the cap. */
  record(client: string, room: string, exists: (room: string) => boolean): void {
    const previous = this.creatorOf.get(room);
    if (previous !== undefined) this.forget(previous, room);
    this.creatorOf.set(room, client);
    let rooms = this.roomsOf.get(client);
    if (rooms === undefined) this.roomsOf.set(client, (rooms = new Set()));
    rooms.add(room);
    if (this.creatorOf.size > 2 * this.maxRooms) this.sweep(exists);
  }

  /** The rooms `client` created that still exist, at most `limit` of them (in creation order). */
  held(client: string, exists: (room: string) => boolean, limit = Infinity): string[] {
    const rooms = this.roomsOf.get(client);
    if (rooms === undefined) return [];
    const live: string[] = [];
    for (const room of rooms) {
      if (!exists(room)) this.forget(client, room);
      else if (live.length < limit) live.push(room);
      else break;
    }
    return live;
  }

  private sweep(exists: (room: string) => boolean): void {
    for (const [room, client] of this.creatorOf) if (!exists(room)) this.forget(client, room);
  }

  private forget(client: string, room: string): void {
    if (this.creatorOf.get(room) === client) this.creatorOf.delete(room);
    const rooms = this.roomsOf.get(client);
    rooms?.delete(room);
    if (rooms?.size === 0) this.roomsOf.delete(client);
  }
}

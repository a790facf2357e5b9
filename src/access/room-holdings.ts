/**
 * Which holder (a client's network, clientNetwork) created which room, for the newcomers' reserve of
 * the room cap (RoomCreationBudget): who holds rooms when few are free. Kept in memory only — the log
 * records no client addresses, by design — so a restart forgets it (every network then counts as a
 * newcomer until it creates again).
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

  /** `holder` is creating `room`; `exists` is consulted when the table has grown past twice the cap. */
  record(holder: string, room: string, exists: (room: string) => boolean): void {
    const previous = this.creatorOf.get(room);
    if (previous !== undefined) this.forget(previous, room);
    this.creatorOf.set(room, holder);
    let rooms = this.roomsOf.get(holder);
    if (rooms === undefined) this.roomsOf.set(holder, (rooms = new Set()));
    rooms.add(room);
    if (this.creatorOf.size > 2 * this.maxRooms) this.sweep(exists);
  }

  /** The rooms `holder` created that still exist, at most `limit` of them (in creation order). */
  held(holder: string, exists: (room: string) => boolean, limit = Infinity): string[] {
    const rooms = this.roomsOf.get(holder);
    if (rooms === undefined) return [];
    const live: string[] = [];
    for (const room of rooms) {
      if (!exists(room)) this.forget(holder, room);
      else if (live.length < limit) live.push(room);
      else break;
    }
    return live;
  }

  private sweep(exists: (room: string) => boolean): void {
    for (const [room, holder] of this.creatorOf) if (!exists(room)) this.forget(holder, room);
  }

  private forget(holder: string, room: string): void {
    if (this.creatorOf.get(room) === holder) this.creatorOf.delete(room);
    const rooms = this.roomsOf.get(holder);
    rooms?.delete(room);
    if (rooms?.size === 0) this.roomsOf.delete(holder);
  }
}

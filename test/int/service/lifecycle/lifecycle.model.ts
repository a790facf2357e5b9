/**
 * The simple in-memory model the lifecycle test holds the real service to (contract §7–§10): rooms
 * with generations, floors and e- expiry, notes with compare-and-set, room ownership, reaping and
 * reclaiming. Times are the service's clock as the test moves it (Date.now() plus the shift it was
 * restarted with); the windows below are hours while a run lasts seconds, so no decision is close.
 */
export const WINDOWS = {
  retentionSeconds: 7200,
  stillbornSeconds: 3600,
  ephemeralTtlSeconds: 1800,
} as const;

export interface ModelMessage {
  readonly seq: number;
  readonly from: string;
  readonly text: string;
  readonly writtenMs: number;
}

export interface ModelRoom {
  /** 0 until first created; +1 on every (re)creation. */
  gen: number;
  /** The last seq before the latest reap (contract §9.3). */
  floor: number;
  exists: boolean;
  /** Every record of the current generation, expired ones included. */
  messages: ModelMessage[];
  lastWriteMs: number;
}

export interface ModelNote {
  readonly value: string;
  readonly lastWriteMs: number;
}

/** What a JSON room read shows, reduced to the fields the model decides. */
export interface RoomView {
  readonly count: number;
  readonly first_seq: number | null;
  readonly last_seq: number;
  readonly generation: number;
  readonly messages: ReadonlyArray<{ readonly seq: number; readonly from: string; readonly text: string }>;
}

/** A note write's condition: none, `if_absent=1`, or `if=<value>` (compare-and-set). */
export type NoteCondition =
  { readonly kind: 'none' } | { readonly kind: 'absent' } | { readonly kind: 'if'; readonly value: string };

const GUARD_NAMESPACES = new Set(['room-owners', 'room-allow', 'room-nonce']);

export class LifecycleModel {
  readonly rooms = new Map<string, ModelRoom>();
  readonly notes = new Map<string, ModelNote>();
  /** How far the service's clock is ahead of this process's. */
  shiftMs = 0;
  private lastNonce = 0;

  now(): number {
    return Date.now() + this.shiftMs;
  }

  /** Strictly increasing for every signed write of the run, so no signed write is ever stale. */
  nextNonce(): string {
    return String(++this.lastNonce);
  }

  room(name: string): ModelRoom {
    let room = this.rooms.get(name);
    if (room === undefined) {
      room = { gen: 0, floor: 0, exists: false, messages: [], lastWriteMs: 0 };
      this.rooms.set(name, room);
    }
    return room;
  }

  /** The newest seq: the last record's, or the floor when the room holds none. */
  head(name: string): number {
    const room = this.room(name);
    return room.messages.at(-1)?.seq ?? room.floor;
  }

  owner(room: string): string | undefined {
    return this.notes.get(`room-owners/${room}`)?.value;
  }

  /** The room write gate (§8.3) as far as the test goes: an owned room takes only its owner's signature. */
  mayWrite(room: string, signer: string | undefined): boolean {
    const owner = this.owner(room);
    return owner === undefined || signer === owner;
  }

  /** An accepted message: creates (or re-creates) the room, continues seq past the floor. */
  append(name: string, from: string, text: string): ModelMessage {
    const room = this.room(name);
    if (!room.exists) {
      room.gen += 1;
      room.exists = true;
      room.messages = [];
    }
    const message = { seq: this.head(name) + 1, from, text, writtenMs: this.now() };
    room.messages.push(message);
    room.lastWriteMs = message.writtenMs;
    return message;
  }

  /** A read (§7.2): the newest `limit` live records after `since`. */
  view(name: string, since: number | undefined, limit: number): RoomView {
    const room = this.room(name);
    const live = this.liveMessages(name);
    const after = live.filter((m) => since === undefined || m.seq > since).slice(-limit);
    let lastSeq: number;
    if (after.length > 0) lastSeq = after[after.length - 1].seq;
    else if (room.exists) lastSeq = Math.min(since ?? 0, this.head(name));
    else lastSeq = since !== undefined && since > 0 ? Math.min(since, room.floor) : 0;
    return {
      count: after.length,
      first_seq: after[0]?.seq ?? null,
      last_seq: lastSeq,
      generation: room.gen,
      messages: after.map(({ seq, from, text }) => ({ seq, from, text })),
    };
  }

  /** e- rooms hide records past the TTL; a read stops at the first expired one from the end. */
  private liveMessages(name: string): ModelMessage[] {
    const messages = this.room(name).messages;
    if (!name.startsWith('e-')) return messages;
    const ttlMs = WINDOWS.ephemeralTtlSeconds * 1000;
    let first = messages.length;
    while (first > 0 && this.now() - messages[first - 1].writtenMs < ttlMs) first--;
    return messages.slice(first);
  }

  /** An unconditional or conditional note write (§10.3); false when it must be a 409. */
  setNote(ns: string, key: string, value: string, condition: NoteCondition): boolean {
    const current = this.notes.get(`${ns}/${key}`);
    if (condition.kind === 'absent' && current !== undefined) return false;
    if (condition.kind === 'if' && current?.value !== condition.value) return false;
    this.notes.set(`${ns}/${key}`, { value, lastWriteMs: this.now() });
    return true;
  }

  /**
   * A signed room-owners write by `signer` storing `newOwner` (§10.4): a claim must be signed by the
   * key it claims, on a room that never held a message (floor included); a hand-over by the owner.
   */
  ownerWrite(room: string, signer: string, newOwner: string): boolean {
    const owner = this.owner(room);
    const allowed = owner === undefined ? signer === newOwner && this.head(room) === 0 : signer === owner;
    if (allowed) this.notes.set(`room-owners/${room}`, { value: newOwner, lastWriteMs: this.now() });
    return allowed;
  }

  /**
   * The clock moved forward by `ms`: what the reapers leave once they have run (§9.1). Rooms first:
   * an owner note outlives its room only while the room exists, so it goes once the room has.
   */
  advance(ms: number): void {
    this.shiftMs += ms;
    const now = this.now();
    for (const room of this.rooms.values()) {
      if (!room.exists) continue;
      const idleSeconds = (now - room.lastWriteMs) / 1000;
      const stillborn = room.messages.length <= 1 && idleSeconds >= WINDOWS.stillbornSeconds;
      if (idleSeconds < WINDOWS.retentionSeconds && !stillborn) continue;
      room.floor = room.messages.at(-1)?.seq ?? room.floor;
      room.exists = false;
      room.messages = [];
    }
    for (const [id, note] of this.notes) {
      const [ns, key] = id.split('/');
      if ((now - note.lastWriteMs) / 1000 < WINDOWS.retentionSeconds) continue;
      if (GUARD_NAMESPACES.has(ns) && this.room(key).exists) continue;
      this.notes.delete(id);
    }
  }
}

import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock';
import { NoteEvent } from '../events/note-events';
import { PendingEffects } from '../write/event-writer';
import { PendingOverlay } from '../write/pending-overlay';
import { PriorWrite } from '../write/idempotency/idempotent-write';
import { PendingKeys } from '../write/idempotency/pending-keys';
import { NoteKeyEntry, NoteKeysProjection } from './idempotency/note-keys.projection';
import type { NoteWriteState } from './note-write.decider';
import { NoteState } from './note-state';

export type { NoteState } from './note-state';
import { OwnerNotes } from '../ownership/owner-notes.port';
import { ROOM_ALLOW, ROOM_GUARD_NAMESPACES, ROOM_NONCE } from '../ownership/reserved-namespaces';
import { noteScope, roomScope } from '../write/log-scopes';
import { LogScope } from '../log/event-log';
import { NotesProjection } from './notes.projection';
import { unreachable } from '../common/unreachable';

/** A keyed note write's entry for the key index, recorded as pending with the append. */
export interface KeyedNoteWrite {
  readonly id: string;
  readonly entry: NoteKeyEntry;
}

interface PendingNote {
  readonly ns: string;
  readonly key: string;
  readonly state: NoteState | null;
}

/**
 * The state note decisions are made against: the notes read model plus the effect of note events
 * that were appended but not applied yet. Lanes read it (gates, conditions, the nonce counter,
 * capacity), decide, append and record here in one synchronous step, so the log's order is the
 * decisions' order: two compare-and-set writers can never both see the same current value, and two
 * ownership writes can never both burn the same nonce. The message gate reads owner notes here too
 * (as the OwnerNotes port), so a claim decided before a message is seen by that message's gate.
 */
@Injectable()
export class NoteWriteModel implements OwnerNotes {
  private readonly pending = new PendingOverlay<PendingNote>();
  private readonly pendingKeys = new PendingKeys<NoteKeyEntry>();

  constructor(
    private readonly notes: NotesProjection,
    private readonly keys: NoteKeysProjection,
    private readonly clock: Clock,
  ) {}

  /** The keyed note write `id` (noteKeyId) names, pending or applied, or null. */
  priorWrite(id: string): PriorWrite<NoteKeyEntry> | null {
    return this.pendingKeys.prior(id, this.keys, this.clock.nowMicros());
  }

  view(ns: string, key: string): NoteState | null {
    const pending = this.pending.get(id(ns, key));
    if (pending !== undefined) return pending.state.state;
    const note = this.notes.get(ns, key);
    return note === undefined ? null : { value: note.value, lastWriteAt: note.lastWriteAt };
  }

  /** Notes in `ns`, counting creations and reclaims not applied yet (only new-note writes ask). */
  countIn(ns: string): number {
    return this.notes.countIn(ns) + this.pendingDelta((note) => note.ns === ns);
  }

  /** Notes in every namespace, counting what is pending. */
  total(): number {
    return this.notes.totalNotes + this.pendingDelta(() => true);
  }

  /** UTF-8 bytes of every note value, counting what is pending (the note-byte budget asks). */
  totalBytes(): number {
    let delta = 0;
    for (const [, note] of this.pending.entries()) {
      const applied = this.notes.get(note.ns, note.key)?.bytes ?? 0;
      delta += (note.state === null ? 0 : Buffer.byteLength(note.state.value, 'utf8')) - applied;
    }
    return this.notes.totalBytes + delta;
  }

  /**
   * What a write to (ns, key) is decided against. Everything but the current value is read only if
   * the decision asks (getters): counting pending notes walks the overlay, and most writes never need it.
   */
  stateFor(ns: string, key: string): NoteWriteState {
    const room = (space: string) => this.view(space, key);
    const totalBytes = () => this.totalBytes();
    const countIn = () => this.countIn(ns);
    const total = () => this.total();
    return {
      current: this.view(ns, key),
      get nonceCounter() {
        return room(ROOM_NONCE)?.value ?? null;
      },
      get hasAllowList() {
        return room(ROOM_ALLOW) !== null;
      },
      get storedBytes() {
        return totalBytes();
      },
      get inNamespace() {
        return countIn();
      },
      get total() {
        return total();
      },
    };
  }

  hasPending(ns: string, key: string): boolean {
    return this.pending.has(id(ns, key));
  }

  /** What appending `events` (carrying `keyed`) does to this model, for EventWriter. */
  effectsOf(events: readonly NoteEvent[], keyed?: KeyedNoteWrite): PendingEffects {
    return {
      scopes: events.map(({ ns, key }) => scopeOf(ns, key)),
      record: (ticket) => {
        if (keyed) this.pendingKeys.record(keyed.id, keyed.entry, ticket);
        for (const event of events) {
          const { ns, key } = event;
          this.pending.set(id(ns, key), { ns, key, state: nextNoteState(this.view(ns, key), event) }, ticket);
        }
      },
      discard: (ticket) => {
        for (const { ns, key } of events) this.pending.discard(id(ns, key), ticket);
        if (keyed) this.pendingKeys.discard(keyed.id, ticket);
      },
      settle: (ticket) => {
        for (const { ns, key } of events) this.pending.settle(id(ns, key), ticket);
        if (keyed) this.pendingKeys.settle(keyed.id, ticket);
      },
    };
  }

  private pendingDelta(matches: (note: PendingNote) => boolean): number {
    let delta = 0;
    for (const [, note] of this.pending.entries()) {
      if (!matches(note)) continue;
      const applied = this.notes.get(note.ns, note.key) !== undefined;
      if ((note.state !== null) !== applied) delta += note.state !== null ? 1 : -1;
    }
    return delta;
  }
}

/** How one event changes a note's write state (the write-side mirror of the projection's fold). */
export function nextNoteState(state: NoteState | null, event: NoteEvent): NoteState | null {
  switch (event.type) {
    case 'note.written':
      return { value: event.value, lastWriteAt: event.at };
    case 'note.reclaimed':
      return state !== null && state.lastWriteAt === event.expectedLastWriteAt ? null : state;
    default:
      return unreachable(event, 'note event');
  }
}

/** Names cannot contain a newline, so this key never collides. */
function id(ns: string, key: string): string {
  return `${ns}\n${key}`;
}

/**
 * A room's ownership notes live in the room's scope of a shared log: the claim rule reads the room's
 * head and the message gate reads the owner, so one precondition covers both sides of either race.
 */
function scopeOf(ns: string, key: string): LogScope {
  return ROOM_GUARD_NAMESPACES.has(ns) ? roomScope(key) : noteScope(ns, key);
}

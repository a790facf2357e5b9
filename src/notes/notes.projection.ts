import { Injectable } from '@nestjs/common';
import { ChatEvent } from '../events/chat-event';
import { Projection } from '../projections/projection';
import { NoteReclaimed, NoteWritten } from '../events/note-events';
import { unreachable } from '../common/unreachable';

/** One stored note. `bytes` is the UTF-8 length of the value (the ack's `<n>B`, the bytes gauge). */
export interface NoteEntry {
  readonly value: string;
  readonly bytes: number;
  /** µs since the epoch of the last write: reads never refresh it. */
  readonly lastWriteAt: number;
}

/** Checkpointed form: one `[ns, key, value, lastWriteAt]` row per live note. */
interface NotesSnapshot {
  readonly notes: Array<[string, string, string, number]>;
}

/**
 * The notes read model: ns → key → note, the per-namespace counts, the total and the bytes gauge.
 * Folding is deterministic and touches no file: the whole table lives in checkpoints, so once a
 * checkpoint covers an overwrite, log retention can drop the segment holding the older value
 * (docs/architecture.md, "Notes"). A reclaim applies only if the note still has the write time the
 * reaper saw; a write in between voids it, as a room write voids a stale reap.
 */
@Injectable()
export class NotesProjection implements Projection {
  readonly name = 'notes';
  private readonly namespaces = new Map<string, Map<string, NoteEntry>>();
  private total = 0;
  private bytes = 0;

  apply(event: ChatEvent): void {
    switch (event.type) {
      case 'note.written':
        return this.written(event);
      case 'note.reclaimed':
        return this.reclaimed(event);
      case 'room.created':
      case 'message.appended':
      case 'room.reaped':
        return;
      default:
        return unreachable(event, 'event');
    }
  }

  get(ns: string, key: string): NoteEntry | undefined {
    return this.namespaces.get(ns)?.get(key);
  }

  /** Every key of a namespace (unsorted, every class included); empty for an unknown namespace. */
  keys(ns: string): string[] {
    return [...(this.namespaces.get(ns)?.keys() ?? [])];
  }

  countIn(ns: string): number {
    return this.namespaces.get(ns)?.size ?? 0;
  }

  get totalNotes(): number {
    return this.total;
  }

  /** UTF-8 bytes of every live value (the /rooms `notes.bytes` gauge; exact, never lagging). */
  get totalBytes(): number {
    return this.bytes;
  }

  /** Every live note, for the reaper's scan. */
  *entries(): IterableIterator<{ ns: string; key: string; note: NoteEntry }> {
    for (const [ns, notes] of this.namespaces) for (const [key, note] of notes) yield { ns, key, note };
  }

  snapshot(): NotesSnapshot {
    const notes: NotesSnapshot['notes'] = [];
    for (const { ns, key, note } of this.entries()) notes.push([ns, key, note.value, note.lastWriteAt]);
    return { notes };
  }

  restore(state: unknown): void {
    this.namespaces.clear();
    this.total = 0;
    this.bytes = 0;
    for (const [ns, key, value, at] of (state as NotesSnapshot).notes) this.put(ns, key, value, at);
  }

  private written(event: NoteWritten): void {
    this.put(event.ns, event.key, event.value, event.at);
  }

  private reclaimed(event: NoteReclaimed): void {
    const notes = this.namespaces.get(event.ns);
    const note = notes?.get(event.key);
    if (notes === undefined || note === undefined || note.lastWriteAt !== event.expectedLastWriteAt) return;
    notes.delete(event.key);
    if (notes.size === 0) this.namespaces.delete(event.ns);
    this.total--;
    this.bytes -= note.bytes;
  }

  private put(ns: string, key: string, value: string, lastWriteAt: number): void {
    let notes = this.namespaces.get(ns);
    if (notes === undefined) this.namespaces.set(ns, (notes = new Map()));
    const previous = notes.get(key);
    const bytes = Buffer.byteLength(value, 'utf8');
    notes.set(key, { value, bytes, lastWriteAt });
    if (previous === undefined) this.total++;
    this.bytes += bytes - (previous?.bytes ?? 0);
  }
}

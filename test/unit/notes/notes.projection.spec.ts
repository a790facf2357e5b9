import { NoteEvent } from '../../../src/events/note-events';
import { NotesProjection } from '../../../src/notes/notes.projection';

const written = (ns: string, key: string, value: string, at: number): NoteEvent => ({
  type: 'note.written',
  ns,
  key,
  value,
  at,
});

describe('NotesProjection', () => {
  it('folds writes and overwrites into the table, the counts and the bytes gauge', () => {
    const notes = new NotesProjection();
    notes.apply(written('a', 'k', 'one', 1));
    notes.apply(written('a', 'k', '☃☃', 2));
    notes.apply(written('b', 'k', 'x', 3));
    expect(notes.get('a', 'k')).toEqual({ value: '☃☃', bytes: 6, lastWriteAt: 2 });
    expect([notes.countIn('a'), notes.countIn('b'), notes.countIn('c'), notes.totalNotes]).toEqual([
      1, 1, 0, 2,
    ]);
    expect(notes.totalBytes).toBe(7);
  });

  it('applies a reclaim only to the write the reaper saw', () => {
    const notes = new NotesProjection();
    notes.apply(written('a', 'k', 'one', 1));
    notes.apply(written('a', 'k', 'two', 5));
    notes.apply({ type: 'note.reclaimed', ns: 'a', key: 'k', at: 9, expectedLastWriteAt: 1 });
    expect(notes.get('a', 'k')?.value).toBe('two');
    notes.apply({ type: 'note.reclaimed', ns: 'a', key: 'k', at: 9, expectedLastWriteAt: 5 });
    expect(notes.get('a', 'k')).toBeUndefined();
    expect([notes.totalNotes, notes.totalBytes, notes.keys('a')]).toEqual([0, 0, []]);
    notes.apply({ type: 'note.reclaimed', ns: 'a', key: 'k', at: 9, expectedLastWriteAt: 5 }); // idempotent
    expect(notes.totalNotes).toBe(0);
  });

  it('restores from its snapshot to the same state as folding the events again', () => {
    const events: NoteEvent[] = [
      written('a', 'k1', 'v1', 1),
      written('a', 'k2', 'ü', 2),
      written('b', 'p-x', 'secret', 3),
      { type: 'note.reclaimed', ns: 'a', key: 'k1', at: 4, expectedLastWriteAt: 1 },
    ];
    const folded = new NotesProjection();
    for (const event of events) folded.apply(event);
    const restored = new NotesProjection();
    restored.apply(written('z', 'stale', 'gone after restore', 0));
    restored.restore(JSON.parse(JSON.stringify(folded.snapshot())));
    expect(restored.snapshot()).toEqual(folded.snapshot());
    expect([restored.totalNotes, restored.totalBytes]).toEqual([folded.totalNotes, folded.totalBytes]);
    expect(restored.get('z', 'stale')).toBeUndefined();
  });
});

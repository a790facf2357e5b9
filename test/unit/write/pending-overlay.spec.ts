import { PendingOverlay } from '../../../src/write/pending-overlay';

describe('PendingOverlay: what writes not applied yet leave, per key', () => {
  it('given two pending writes to a key, then get shows the newer, and settling the older keeps it', () => {
    const overlay = new PendingOverlay<number>();
    overlay.set('room', 1, 10);
    overlay.set('room', 2, 11);
    expect(overlay.get('room')?.state).toBe(2);
    overlay.settle('room', 10);
    expect(overlay.get('room')?.state).toBe(2);
    overlay.settle('room', 11);
    expect(overlay.has('room')).toBe(false);
  });

  it('given a stored write not applied yet and a newer one refused, then the older state is what decisions read', () => {
    // Seq 387 is stored in the stream (its tail delivery is late); the write deciding 388 is refused
    // at once: the next decision must read 387, not the read model's 386 (the fault test's duplicate seq).
    const overlay = new PendingOverlay<number>();
    overlay.set('own-0', 387, 20);
    overlay.set('own-0', 388, 21);
    overlay.discard('own-0', 21);
    expect(overlay.get('own-0')?.state).toBe(387);
    expect([...overlay.entries()]).toEqual([['own-0', 387]]);
  });

  it('given a discard of a write that left nothing, then nothing changes', () => {
    const overlay = new PendingOverlay<string>();
    overlay.set('k', 'a', 1);
    overlay.discard('k', 2);
    overlay.discard('other', 1);
    expect(overlay.get('k')?.state).toBe('a');
    overlay.discard('k', 1);
    expect(overlay.get('k')).toBeUndefined();
  });
});

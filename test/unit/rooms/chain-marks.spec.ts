import { ChainMarks } from '../../../src/rooms/chain/chain-marks';

describe('ChainMarks: chain values remembered for compaction', () => {
  it('marks a line end once a stride has passed since the last mark, and cuts at the newest mark at or before the cut', () => {
    const marks = new ChainMarks(4000); // stride 100
    for (const [at, chain] of [
      [60, 'a'],
      [120, 'b'],
      [190, 'c'],
      [230, 'd'],
      [330, 'e'],
    ] as const) {
      marks.remember('r', at, chain);
    }
    // Marked: 120 (≥ 100 after 0), 230 (≥ 100 after 120), 330.
    expect(marks.cut('r', 200)).toEqual({ at: 120, chain: 'b' });
    // Renumbered for the new file, which starts at old byte 200: 230 → 30, 330 → 130.
    expect(marks.cut('r', 30)).toEqual({ at: 30, chain: 'd' });
    expect(marks.cut('r', 50)).toBeNull(); // the one left (old 330, now 100) lies after the cut
    expect(marks.cut('r', 100)).toEqual({ at: 50, chain: 'e' });
    expect(marks.cut('r', 1)).toBeNull(); // none left
  });

  it('forgets a room, or every room', () => {
    const marks = new ChainMarks(4000);
    marks.remember('r', 150, 'a');
    marks.remember('s', 150, 'b');
    marks.forget('r');
    expect(marks.cut('r', 150)).toBeNull();
    marks.clear();
    expect(marks.cut('s', 150)).toBeNull();
  });
});

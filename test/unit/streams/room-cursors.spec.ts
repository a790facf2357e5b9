import { formatCursors, parseCursors } from '../../../src/streams/cursor/room-cursors';

describe('room cursors: one grammar for rooms=, event ids, Last-Event-ID and the watch cursor', () => {
  it('reads a bare room, a since, and a since with its generation; formats the full form back', () => {
    expect(parseCursors('rooms', 'lobby,mb-me:0,d-x:41:3', 64)).toEqual([
      { room: 'lobby', since: null, generation: null },
      { room: 'mb-me', since: 0, generation: null },
      { room: 'd-x', since: 41, generation: 3 },
    ]);
    const positions = [
      { room: 'a', seq: 5, generation: 1 },
      { room: 'b', seq: 0, generation: 0 },
    ];
    expect(formatCursors(positions)).toBe('a:5:1,b:0:0');
    expect(parseCursors('rooms', formatCursors(positions), 64)).toEqual([
      { room: 'a', since: 5, generation: 1 },
      { room: 'b', since: 0, generation: 0 },
    ]);
  });

  it('refuses what it cannot read with a 400 naming the parameter', () => {
    const bad =
      (raw: string, max = 3) =>
      () =>
        parseCursors('Last-Event-ID', raw, max);
    expect(bad('')).toThrow(/^bad Last-Event-ID: it is empty/);
    expect(bad('a,b,c,d')).toThrow(/at most 3 are allowed/);
    expect(bad('a:')).toThrow(/'' after a: is not a seq/);
    expect(bad('a:-1')).toThrow(/'-1' after a: is not a seq/);
    expect(bad('a:1:x')).toThrow(/'x' after a: is not a generation/);
    expect(bad('a:1:2:3')).toThrow(/more than three parts/);
    expect(bad('A')).toThrow(/'A' is not a room name/);
    expect(bad('a,,b')).toThrow(/'' is not a room name/);
    expect(bad('a:1,a:2')).toThrow(/lists a twice/);
    expect(bad('a:1234567890123456')).toThrow(/is not a seq \(1-15 digits\)/);
  });
});

import { RoomWindow, WINDOW_BYTES, WINDOW_RECORDS } from '../../../src/listing/room-window';

describe('RoomWindow', () => {
  const fill = (writers: string[], bytes = 70): RoomWindow => {
    const window = new RoomWindow();
    writers.forEach((from, i) => window.push(from, bytes, i + 1));
    return window;
  };

  it('counts the newest run by the newest writer and the distinct writers', () => {
    const window = fill(['a', 'a', 'b', 'b', 'b']);
    expect([window.size, window.run, window.distinctWriters]).toEqual([5, 3, 2]);
    window.push('a', 70, 6);
    expect([window.run, window.distinctWriters]).toEqual([1, 2]);
  });

  it('keeps at most the newest 200 records, and a run never longer than the window', () => {
    const window = fill(Array.from({ length: WINDOW_RECORDS + 50 }, () => 'solo'));
    expect([window.size, window.run, window.distinctWriters]).toEqual([WINDOW_RECORDS, WINDOW_RECORDS, 1]);
    window.push('other', 70, 1000);
    expect([window.size, window.run, window.distinctWriters]).toEqual([WINDOW_RECORDS, 1, 2]);
  });

  it('keeps only records lying wholly inside the newest 64 KiB', () => {
    const window = fill(['a', 'b', 'c', 'd', 'e'], 20_000);
    expect(window.size).toBe(Math.floor(WINDOW_BYTES / 20_000));
    expect([...window.writerNames()]).toEqual(['c', 'd', 'e']);
    window.push('huge', WINDOW_BYTES + 1, 6);
    expect([window.size, window.run, window.distinctWriters]).toEqual([0, 0, 0]);
  });

  it('forgets records a compaction dropped', () => {
    const window = fill(['a', 'b', 'b', 'c']);
    window.dropBefore(3);
    expect([window.size, window.run, [...window.writerNames()]]).toEqual([2, 1, ['b', 'c']]);
  });
});

import { createHash } from 'node:crypto';
import { loadConfig } from '../../../src/config/load-config';
import { RoomEvent } from '../../../src/events/chat-event';
import { ChainMarks } from '../../../src/rooms/chain/chain-marks';
import { unsignedRecordLine } from '../../../src/rooms/read-side/stored-record';
import { RingFileStore } from '../../../src/rooms/ring/ring-file-store';
import { TailCache } from '../../../src/rooms/ring/tail-cache';
import { RoomsProjection } from '../../../src/rooms/rooms.projection';
import { makeTempDir } from '../../support/temp-dir';

/** The chain definition written out independently of src/rooms/chain (a copy would prove nothing). */
const sha256 = (...parts: Buffer[]): string => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest('hex');
};
const h0 = (room: string): string => sha256(Buffer.from(`agent-chat room chain v1\n${room}\n1\n`));
const fold = (anchor: string, lines: readonly Buffer[]): string =>
  lines.reduce((hash, line) => sha256(Buffer.from(hash, 'hex'), line), anchor);

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

describe('RoomsProjection: anchors moved over compacted lines (given appends that compact the ring many times)', () => {
  const dirs: { remove(): void }[] = [];
  afterAll(() => dirs.forEach((dir) => dir.remove()));

  function projection(): RoomsProjection {
    const dir = makeTempDir('chain-marks');
    dirs.push(dir);
    // A 4 KiB ring: a mark every 102 bytes, a compaction every ~2 KiB appended.
    const config = loadConfig({ CHAT_ROOT: dir.path, CHAT_RING_BYTES: '4096' });
    return new RoomsProjection(config, new RingFileStore(dir.path), new TailCache(1 << 20));
  }

  const appended = (seq: number): RoomEvent => ({
    type: 'message.appended',
    room: 'r',
    seq,
    at: 1_767_225_600_000_000 + seq,
    // Lengths vary so that cuts fall both on marks and between them.
    record: unsignedRecordLine(seq, '2026-01-01T00:00:00Z', 'ann', 'x'.repeat((seq * 37) % 150)),
  });

  it('matches the chain folded over every dropped line, with marks and after a restore without them', () => {
    const marked = projection();
    const restored = projection();
    const created: RoomEvent = { type: 'room.created', room: 'r', generation: 1, at: 1_767_225_600_000_000 };
    marked.apply(created);
    restored.apply(created);
    const lines: Buffer[] = [];
    let compactions = 0;
    for (let seq = 1; seq <= 600; seq++) {
      const event = appended(seq);
      const epoch = marked.meta('r')!.epoch;
      marked.apply(event);
      restored.apply(event);
      if (seq === 300) restored.restore(JSON.parse(JSON.stringify(restored.snapshot()))); // marks gone
      lines.push(Buffer.from(`${(event as { record: string }).record}\n`));
      const meta = marked.meta('r')!;
      if (meta.epoch === epoch) continue;
      compactions++;
      const kept = lines.length - meta.records;
      expect(meta.anchor).toBe(fold(h0('r'), lines.slice(0, kept)));
      expect(meta.chain).toBe(fold(h0('r'), lines));
      expect(restored.meta('r')).toEqual(meta);
    }
    expect(compactions).toBeGreaterThan(20);
  });
});

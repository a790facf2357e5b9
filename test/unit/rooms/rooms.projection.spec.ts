import { createHash } from 'node:crypto';
import { loadConfig } from '../../../src/config/load-config';
import { ChatEvent, RoomEvent } from '../../../src/events/chat-event';
import { decodeEvent, encodeEvent } from '../../../src/events/event-codec';
import { MemoryEventLog } from '../../../src/log/memory/memory-event-log';
import { unsignedRecordLine } from '../../../src/rooms/read-side/stored-record';
import { RingFileStore } from '../../../src/rooms/ring/ring-file-store';
import { TailCache } from '../../../src/rooms/ring/tail-cache';
import { nextWriteState, RoomWriteState } from '../../../src/rooms/room-write.model';
import { RoomsProjection } from '../../../src/rooms/rooms.projection';
import { makeTempDir } from '../../support/temp-dir';

// Given events in the log, when the rooms projection folds them, then this read model.
const AT = 1_767_225_600_000_000;
const created = (room: string, generation: number): RoomEvent => ({
  type: 'room.created',
  room,
  generation,
  at: AT,
});
const appended = (room: string, seq: number, text: string, nonce?: string): RoomEvent => ({
  type: 'message.appended',
  room,
  seq,
  at: AT + seq,
  record: unsignedRecordLine(seq, '2026-01-01T00:00:00Z', 'ann', text),
  ...(nonce ? { nonce } : {}),
});
const reaped = (room: string, lastSeq: number): RoomEvent => ({ type: 'room.reaped', room, lastSeq, at: AT });

/** The chain definition written out independently of src/rooms/chain (a copy would prove nothing). */
const sha256 = (...parts: Buffer[]): string => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest('hex');
};
const h0 = (room: string): string => sha256(Buffer.from(`agent-chat room chain v1\n${room}\n1\n`));
const chainFold = (anchor: string, lines: readonly Buffer[]): string =>
  lines.reduce((hash, line) => sha256(Buffer.from(hash, 'hex'), line), anchor);

describe('RoomsProjection (given events from the memory log)', () => {
  const dirs: { remove(): void }[] = [];
  afterAll(() => dirs.forEach((dir) => dir.remove()));

  function projection(env: Record<string, string> = {}): RoomsProjection {
    const dir = makeTempDir('rooms-projection');
    dirs.push(dir);
    return new RoomsProjection(
      loadConfig({ CHAT_ROOT: dir.path, ...env }),
      new RingFileStore(dir.path),
      new TailCache(1 << 20),
    );
  }

  /** Appends the events to a memory log and folds what the log hands back, as the runner does. */
  async function fold(events: readonly ChatEvent[]): Promise<RoomsProjection> {
    const log = new MemoryEventLog();
    await log.open();
    await log.append(events.map(encodeEvent));
    const rooms = projection();
    for await (const record of log.read(0)) rooms.apply(decodeEvent(record.payload));
    await log.close();
    return rooms;
  }

  it('a created room holds its messages in seq order, newest last', async () => {
    const rooms = await fold([created('lobby', 1), appended('lobby', 1, 'a'), appended('lobby', 2, 'b')]);
    expect(rooms.meta('lobby')).toMatchObject({ exists: true, generation: 1, head: 2, records: 2 });
    const tail = rooms.tail('lobby')!;
    expect([tail.at(0).text, tail.at(1).text]).toEqual(['a', 'b']);
    expect(rooms.liveRooms).toBe(1);
  });

  it('a reaped room keeps its generation and floor; the next creation continues from them', async () => {
    const rooms = await fold([
      created('lobby', 1),
      appended('lobby', 1, 'a'),
      appended('lobby', 2, 'b'),
      reaped('lobby', 2),
    ]);
    expect(rooms.meta('lobby')).toMatchObject({ exists: false, generation: 1, head: 2 });
    expect(rooms.liveRooms).toBe(0);
    rooms.apply(created('lobby', 2));
    rooms.apply(appended('lobby', 3, 'again'));
    expect(rooms.meta('lobby')).toMatchObject({ exists: true, generation: 2, head: 3, records: 1 });
    expect(rooms.tail('lobby')!.newest()?.text).toBe('again');
  });

  it('indexes the last nonce each key spent in a room', async () => {
    const signed = (seq: number, nonce: string): RoomEvent => ({
      ...(appended('mb-box', seq, 'x') as Extract<RoomEvent, { type: 'message.appended' }>),
      record: unsignedRecordLine(seq, '2026-01-01T00:00:00Z', 'did:key:z6Mk', 'x'),
      nonce,
    });
    const rooms = await fold([created('mb-box', 1), signed(1, '5'), signed(2, '90071992547409930')]);
    expect(rooms.lastNonce('mb-box', 'did:key:z6Mk')).toBe(90071992547409930n);
    expect(rooms.lastNonce('mb-box', 'did:key:other')).toBeNull();
  });

  it('agrees with the write side: nextWriteState folds the same events to the same exists/generation/head', async () => {
    const events: RoomEvent[] = [
      created('a', 1),
      appended('a', 1, 'x'),
      created('b', 1),
      appended('a', 2, 'y'),
      reaped('a', 2),
      appended('b', 1, 'z'),
      created('a', 2),
      appended('a', 3, 'w'),
    ];
    const rooms = await fold(events);
    const write = new Map<string, RoomWriteState>();
    for (const event of events) {
      write.set(
        event.room,
        nextWriteState(write.get(event.room) ?? { exists: false, generation: 0, head: 0 }, event),
      );
    }
    for (const [room, state] of write) {
      const { exists, generation, head } = rooms.meta(room)!;
      expect({ exists, generation, head }).toEqual(state);
    }
  });

  it('restores from its snapshot to the same state as folding the events again', async () => {
    const events = [
      created('lobby', 1),
      appended('lobby', 1, 'a'),
      created('p-x', 1),
      appended('p-x', 1, 'b'),
    ];
    const folded = await fold(events);
    const restored = projection();
    restored.restore(JSON.parse(JSON.stringify(folded.snapshot())));
    expect(restored.snapshot()).toEqual(folded.snapshot());
  });

  it('moves the chain anchor over compacted lines: the fold over every dropped line, with marks and after a restore without them', () => {
    // A 4 KiB ring: a chain mark every 102 bytes, a compaction every ~2 KiB appended.
    const marked = projection({ CHAT_RING_BYTES: '4096' });
    const restored = projection({ CHAT_RING_BYTES: '4096' });
    marked.apply(created('r', 1));
    restored.apply(created('r', 1));
    const lines: Buffer[] = [];
    let compactions = 0;
    for (let seq = 1; seq <= 600; seq++) {
      // Lengths vary so that cuts fall both on marks and between them.
      const event = appended('r', seq, 'x'.repeat((seq * 37) % 150));
      const epoch = marked.meta('r')!.epoch;
      marked.apply(event);
      restored.apply(event);
      if (seq === 300) restored.restore(JSON.parse(JSON.stringify(restored.snapshot()))); // marks gone
      lines.push(Buffer.from(`${(event as { record: string }).record}\n`));
      const meta = marked.meta('r')!;
      if (meta.epoch === epoch) continue;
      compactions++;
      const kept = lines.length - meta.records;
      expect(meta.anchor).toBe(chainFold(h0('r'), lines.slice(0, kept)));
      expect(meta.chain).toBe(chainFold(h0('r'), lines));
      expect(restored.meta('r')).toEqual(meta);
    }
    expect(compactions).toBeGreaterThan(20);
  });
});

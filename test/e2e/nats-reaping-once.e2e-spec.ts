import { ManualClock } from '../../src/common/clock';
import { ChatEvent } from '../../src/events/chat-event';
import { decodeEvent } from '../../src/events/event-codec';
import { JetStreamEventLog } from '../../src/log/nats/jetstream-event-log';
import { NotesReaperService } from '../../src/notes/notes-reaper.service';
import { RoomReaperService } from '../../src/rooms/room-reaper.service';
import { deleteStream, NATS_URL, natsLogOptions, uniqueStreamName } from '../support/nats-stream';
import { TestApp } from '../support/test-app';

const RETENTION_SECONDS = 60;
const ROOMS = Array.from({ length: 12 }, (_, i) => `idle-${i}`);
const NOTES = Array.from({ length: 8 }, (_, i) => `key${i}`);

/** Every event the stream holds, decoded (read through a third, read-only connection). */
async function streamEvents(stream: string): Promise<ChatEvent[]> {
  const log = new JetStreamEventLog(natsLogOptions(stream));
  await log.open();
  try {
    const events: ChatEvent[] = [];
    for await (const record of log.read(0)) events.push(decodeEvent(record.payload));
    return events;
  } finally {
    await log.close();
  }
}

/** Waits until `node` has applied everything the stream holds (its tail is at the stream's head). */
async function caughtUp(node: TestApp, rooms: readonly string[]): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const replies = await Promise.all(rooms.map((room) => node.getPath(`/r/${room}/export`)));
    if (replies.every((reply) => reply.status === 200 && reply.body !== '')) return;
    if (Date.now() > deadline) throw new Error('node did not catch up');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Both nodes' exports of `room` once they agree (each applies the other's writes from the stream). */
async function agreedExport(a: TestApp, b: TestApp, room: string): Promise<string> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const [fromA, fromB] = await Promise.all([
      a.getPath(`/r/${room}/export`),
      b.getPath(`/r/${room}/export`),
    ]);
    if (fromA.body === fromB.body || Date.now() > deadline) {
      expect(fromB.body).toBe(fromA.body);
      return fromA.body;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const seqsOf = (exported: string): number[] =>
  exported
    .trimEnd()
    .split('\n')
    .map((line) => (JSON.parse(line) as { seq: number }).seq);

describe('ring upkeep and reaping on two nodes sharing one JetStream stream happen once, identically', () => {
  const stream = uniqueStreamName('reap-once');
  // One clock for both nodes, moved by hand: both see the same idle times, as nodes with synced clocks do.
  const clock = new ManualClock();
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    const config = {
      logBackend: 'nats' as const,
      natsUrl: NATS_URL,
      natsStream: stream,
      retentionSeconds: RETENTION_SECONDS,
      ringBytes: 4096, // the smallest ring: a few dozen messages trim it
      ephemeralTtlSeconds: 1,
      reapEverySeconds: 3600, // passes are run by hand below, on both nodes at once
    };
    a = await TestApp.start(config, clock);
    b = await TestApp.start(config, clock);
  }, 60_000);

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await deleteStream(stream);
  });

  it('trims a ring and expires e- messages identically on both nodes', async () => {
    const text = (i: number) => `message ${i} `.padEnd(120, 'x');
    for (let i = 0; i < 80; i++) {
      expect((await (i % 2 === 0 ? a : b).post('/r/trimmed', { from: 'ann', text: text(i) })).status).toBe(
        200,
      );
    }
    const trimmed = seqsOf(await agreedExport(a, b, 'trimmed'));
    expect(trimmed[0]).toBeGreaterThan(1); // the ring was compacted: the oldest records are gone
    expect(trimmed).toEqual(trimmed.map((_, i) => trimmed[0] + i));
    expect(trimmed[trimmed.length - 1]).toBe(80);

    for (let i = 0; i < 5; i++) await a.post('/r/e-brief', { from: 'ann', text: `early ${i}` });
    clock.advanceMs(2000); // past the 1 s e- lifetime
    for (let i = 0; i < 40; i++) {
      await (i % 2 === 0 ? b : a).post('/r/e-brief', { from: 'bob', text: text(i) });
    }
    const brief = await agreedExport(a, b, 'e-brief');
    expect(brief).not.toContain('early 0');
    expect(seqsOf(brief)[0]).toBeGreaterThan(5);
  }, 60_000);

  it('racing reaper passes on both nodes append one room.reaped per idle room and one note.reclaimed per idle note', async () => {
    clock.advanceMs(1000);
    for (const [i, room] of ROOMS.entries()) {
      const node = i % 2 === 0 ? a : b;
      expect((await node.post(`/r/${room}`, { from: 'ann', text: `hello ${room}` })).status).toBe(200);
      expect((await node.post(`/r/${room}`, { from: 'bob', text: `second in ${room}` })).status).toBe(200);
    }
    for (const [i, key] of NOTES.entries()) {
      const node = i % 2 === 0 ? b : a;
      expect((await node.post(`/kv/idle-notes/${key}`, { value: `value of ${key}` })).status).toBe(200);
    }
    await Promise.all([caughtUp(a, ROOMS), caughtUp(b, ROOMS)]);

    clock.advanceMs((RETENTION_SECONDS + 5) * 1000);
    const passes = await Promise.all(
      [a, b].flatMap((node) => [node.get(RoomReaperService).pass(), node.get(NotesReaperService).pass()]),
    );
    // Between them the two nodes reaped every room (with /r/events and the first test's rooms, idle as
    // long) and reclaimed every note, each exactly once.
    const idleRooms = [...ROOMS, 'events', 'trimmed', 'e-brief'];
    expect(passes[0] + passes[2]).toBe(idleRooms.length);
    expect(passes[1] + passes[3]).toBe(NOTES.length);

    const events = await streamEvents(stream);
    const reaped = events.filter((e) => e.type === 'room.reaped').map((e) => e.room);
    expect(reaped.sort()).toEqual(idleRooms.sort());
    const reclaimed = events.filter((e) => e.type === 'note.reclaimed').map((e) => e.key);
    expect(reclaimed.sort()).toEqual([...NOTES].sort());

    // Both nodes agree: the rooms are gone from the listing and the notes from their namespace.
    for (const node of [a, b]) {
      const deadline = Date.now() + 10_000;
      let listing = await node.getPath('/rooms?format=json');
      while (ROOMS.some((room) => listing.body.includes(`"${room}"`)) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        listing = await node.getPath('/rooms?format=json');
      }
      for (const room of ROOMS) expect(listing.body).not.toContain(`"${room}"`);
      expect((await node.getPath('/kv/idle-notes/key0')).status).toBe(404);
    }
  }, 60_000);
});

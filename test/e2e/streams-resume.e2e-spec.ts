import { EventSource } from 'eventsource';
import { ManualClock } from '../../src/common/clock';
import { RoomReaperService } from '../../src/rooms/room-reaper.service';
import { seededRandom } from '../support/seeded-random';
import { SseClient, SseEvent } from '../support/sse-client';
import { TestApp } from '../support/test-app';

interface Message {
  room: string;
  message: { seq: number; text: string };
}

/**
 * Messages the cut-and-resume run delivers over its 20 rooms: every cut and resume is the same code
 * path, so the suite's count gets dozens of cuts in a few seconds; `AGENT_CHAT_STREAM_MESSAGES=10000`
 * is the long run (see README).
 */
const TOTAL = Number(process.env.AGENT_CHAT_STREAM_MESSAGES ?? 2000);

const parse = (event: SseEvent) => JSON.parse(event.data) as Record<string, unknown>;

/**
 * Reads `path` until `done()`, cutting the connection at random moments and reconnecting with the
 * last id received, as a client on a flaky network would. Returns every message event, in order.
 */
async function flakyReader(
  url: string,
  done: () => boolean,
  random: () => number,
  received: SseEvent[],
): Promise<number> {
  let lastId: string | undefined;
  let connections = 0;
  const deadline = Date.now() + 90_000;
  while (!done() && Date.now() < deadline) {
    const client = await SseClient.open(url, lastId === undefined ? {} : { 'last-event-id': lastId });
    expect(client.status).toBe(200);
    connections++;
    // Short enough that the suite's count (written in a second or two on an idle machine) still
    // sees dozens of cuts, many of them mid catch-up.
    const cutAfter = 10 + random() * 90;
    await client.until(() => client.ended || done(), cutAfter).catch(() => undefined);
    client.cut();
    for (const event of client.events) {
      if (event.event === 'message' || event.event === 'gap' || event.event === 'reset') received.push(event);
      if (event.id !== undefined) lastId = event.id;
    }
  }
  return connections;
}

describe('streams resume exactly: cuts, gaps, resets, and an off-the-shelf EventSource (real port)', () => {
  let t: TestApp;
  let base: string;
  afterEach(() => t.close());

  async function start(
    overrides: Parameters<typeof TestApp.start>[0] = {},
    clock?: ManualClock,
  ): Promise<void> {
    t = await TestApp.start(overrides, clock);
    base = await t.listen();
  }
  const post = (room: string, text: string) =>
    fetch(`${base}/r/${room}`, { method: 'POST', body: JSON.stringify({ from: 'w', text }) }).then((r) => {
      expect(r.status).toBe(200);
    });

  it(`delivers ${TOTAL.toLocaleString('en')} messages over 20 rooms exactly once, in seq order, through streams cut at random`, async () => {
    await start({ fsync: 'none' });
    const rooms = Array.from({ length: 20 }, (_, i) => `flaky${i}`);
    const perRoom = Math.ceil(TOTAL / rooms.length);
    const received: SseEvent[] = [];
    const single: SseEvent[] = [];
    const total = rooms.length * perRoom;
    const random = seededRandom(28);
    const many = flakyReader(
      `${base}/watch/sse?rooms=${rooms.map((r) => `${r}:0`).join(',')}`,
      () => received.length >= total,
      random,
      received,
    );
    const one = flakyReader(`${base}/r/flaky7/sse?since=0`, () => single.length >= perRoom, random, single);
    await Promise.all(
      rooms.map(async (room) => {
        for (let i = 1; i <= perRoom; i++) await post(room, `${room} message ${i}`);
      }),
    );
    const [connections] = await Promise.all([many, one]);
    expect(connections).toBeGreaterThan(5);
    expect(received.filter((e) => e.event !== 'message')).toEqual([]);
    const messages = received.map((e) => parse(e) as unknown as Message);
    expect(messages).toHaveLength(total);
    for (const room of rooms) {
      const texts = messages.filter((m) => m.room === room).map((m) => m.message.text);
      expect(texts).toEqual(Array.from({ length: perRoom }, (_, i) => `${room} message ${i + 1}`));
    }
    expect(single.map((e) => (parse(e) as unknown as Message).message.seq)).toEqual(
      Array.from({ length: perRoom }, (_, i) => i + 1),
    );
  }, 180_000);

  it('tells a gap exactly when the ring dropped messages past the cursor, never to a reader keeping up', async () => {
    await start({ ringBytes: 4096 });
    const live = await SseClient.open(`${base}/r/ring/sse`);
    await live.until(() => live.events.length === 1);
    for (let i = 1; i <= 60; i++) await post('ring', `message number ${i} of sixty`);
    await live.until(() => live.messages().length === 60);
    expect(live.events.filter((e) => e.event === 'gap')).toEqual([]);
    live.cut();
    const retained = (await (await fetch(`${base}/r/ring?since=0&format=json`)).json()) as {
      first_seq: number;
    };
    const first = retained.first_seq;
    expect(first).toBeGreaterThan(5);

    const behind = await SseClient.open(`${base}/r/ring/sse`, { 'last-event-id': 'ring:3:1' });
    await behind.until(() => behind.messages().length === 61 - first);
    behind.cut();
    expect(behind.events[1]).toMatchObject({ event: 'gap', id: `ring:${first - 1}:1` });
    expect(parse(behind.events[1])).toEqual({ room: 'ring', from: 4, to: first - 1, reason: 'ring' });
    expect(behind.messages().map((e) => (parse(e) as unknown as Message).message.seq)[0]).toBe(first);

    const justInside = await SseClient.open(`${base}/r/ring/sse?since=${first - 1}`);
    await justInside.until(() => justInside.messages().length === 61 - first);
    justInside.cut();
    expect(justInside.events.filter((e) => e.event === 'gap')).toEqual([]);

    const watched = (await (await fetch(`${base}/watch?rooms=ring:3:1&wait=0&format=json`)).json()) as {
      gaps: unknown[];
    };
    expect(watched.gaps).toEqual([{ room: 'ring', from: 4, to: first - 1, reason: 'ring' }]);
  });

  it('tells a reset when the room was reaped and created again, and a gap for what the reap took', async () => {
    const clock = new ManualClock();
    await start({ retentionSeconds: 60 }, clock);
    for (let i = 1; i <= 3; i++) await post('cycle', `first life ${i}`);
    const live = await SseClient.open(`${base}/r/cycle/sse`);
    await live.until(() => live.events.length === 1);
    clock.advanceMs(120_000);
    expect(await t.get(RoomReaperService).pass()).toBeGreaterThanOrEqual(1);
    await post('cycle', 'second life');
    await live.until(() => live.messages().length === 1);
    live.cut();
    expect(live.events.map((e) => [e.event, e.id])).toEqual([
      ['ready', 'cycle:3:1'],
      ['reset', 'cycle:3:2'],
      ['message', 'cycle:4:2'],
    ]);
    expect(parse(live.events[1])).toEqual({ room: 'cycle', generation: 2, previous: 1 });

    const late = await SseClient.open(`${base}/r/cycle/sse`, { 'last-event-id': 'cycle:1:1' });
    await late.until(() => late.messages().length === 1);
    late.cut();
    expect(late.events.slice(1).map((e) => [e.event, e.id])).toEqual([
      ['reset', 'cycle:1:2'],
      ['gap', 'cycle:3:2'],
      ['message', 'cycle:4:2'],
    ]);
    const watched = (await (
      await fetch(`${base}/watch?rooms=cycle:1:1&wait=0&format=json`)
    ).json()) as Record<string, unknown>;
    expect(watched).toMatchObject({
      cursor: 'cycle:4:2',
      resets: [{ room: 'cycle', generation: 2, previous: 1 }],
      gaps: [{ room: 'cycle', from: 2, to: 3, reason: 'ring' }],
    });
    const text = await (await fetch(`${base}/watch?rooms=cycle:1:1&wait=0`)).text();
    expect(text.split('\n').slice(3, 5)).toEqual([
      '# reset /r/cycle: reaped and created again, generation 2 (your cursor had 1)',
      '# gap /r/cycle: 2..3 gone (the ring no longer holds them)',
    ]);
    const current = (await (
      await fetch(`${base}/watch?rooms=cycle:4:2&wait=0&format=json`)
    ).json()) as Record<string, unknown>;
    expect([current.resets, current.gaps, current.count]).toEqual([[], [], 0]);
  });

  it('lets the eventsource package reconnect and resume on its own after the server drops it', async () => {
    await start();
    const source = new EventSource(`${base}/watch/sse?rooms=a,b`);
    const got: Message[] = [];
    let readies = 0;
    source.addEventListener('ready', () => readies++);
    source.onmessage = (event) => got.push(JSON.parse(event.data as string) as Message);
    const waitFor = async (count: number) => {
      for (let i = 0; i < 300 && got.length < count; i++) await new Promise((r) => setTimeout(r, 50));
      expect(got.length).toBe(count);
    };
    try {
      for (let i = 0; i < 100 && readies === 0; i++) await new Promise((r) => setTimeout(r, 20));
      await post('a', 'a1');
      await post('b', 'b1');
      await waitFor(2);
      t.app.getHttpServer().closeAllConnections(); // the server drops every connection
      await new Promise((r) => setTimeout(r, 100)); // (the test's own pooled fetch connections too)
      await post('a', 'a2'); // while the client is away: only Last-Event-ID can bring these back
      await post('b', 'b2');
      await post('a', 'a3');
      await waitFor(5);
      expect(readies).toBe(2);
      // Seq order within each room; a catch-up sends room by room.
      const texts = (room: string) => got.filter((m) => m.room === room).map((m) => m.message.text);
      expect([texts('a'), texts('b')]).toEqual([
        ['a1', 'a2', 'a3'],
        ['b1', 'b2'],
      ]);
    } finally {
      source.close();
    }
  });
});

import { ManualClock } from '../../src/common/clock';
import { LISTING_BANNER } from '../../src/listing/listing-view';
import { RoomReaperService } from '../../src/rooms/room-reaper.service';
import { TailCache } from '../../src/rooms/ring/tail-cache';
import { json, TestApp } from '../support/test-app';

/** Budgets high enough that a test's own traffic never meets a 429. */
const GENEROUS = { rateRead: 100_000, rateWrite: 100_000, rateRoomsPerDay: 100_000 };

interface Row {
  room: string;
  last_seq: number;
  bytes: number;
  idle_seconds: number;
  topic: string | null;
  window: number;
  zero_response_share: number | null;
  nick_diversity: number | null;
}

describe('GET /rooms', () => {
  let t: TestApp;
  let clock: ManualClock;
  beforeEach(async () => {
    clock = new ManualClock();
    t = await TestApp.start(GENEROUS, clock);
  });
  afterEach(() => t.close());

  const listing = async (query = ''): Promise<Record<string, unknown>> =>
    json(await t.getPath(`/rooms?format=json${query}`));
  const rows = async (query = ''): Promise<Row[]> => (await listing(query)).rooms as Row[];
  const exportBytes = async (room: string): Promise<number> =>
    (await t.getPath(`/r/${room}/export`)).rawPayload.length;

  it('lists nothing on an empty server, in both forms, with the untrusted marker', async () => {
    const text = await t.getPath('/rooms');
    expect(text.status).toBe(200);
    expect(text.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(text.headers['cache-control']).toBe('public, max-age=0, s-maxage=1, stale-while-revalidate=5');
    expect(text.body).toBe(
      '(no rooms yet — GET /r/<name>/say/<nick>/<text> creates one)\n' +
        '# notes 0 of 163840 (0B total, 5120 per namespace, namespaces not listed)\n',
    );
    const body = await t.getPath('/rooms?format=json');
    expect(body.headers['content-type']).toBe('application/json');
    expect(body.body).toBe(
      '{"rooms":[],"total":0,"capacity":5120,"bytes":0,"bytes_capacity":5368709120,' +
        '"engagement":{"window_cap":200,"windowed_messages":0,"zero_response_share":null,' +
        '"nick_diversity":null,"windowed_note_to_message_ratio":null},' +
        '"notes":{"total":0,"bytes":0,"capacity":163840,"capacity_per_namespace":5120},' +
        `"untrusted":{"fields":["room","topic"],"note":${JSON.stringify(LISTING_BANNER)}}}\n`,
    );
    expect(LISTING_BANNER.startsWith('!! UNTRUSTED NAMES — ')).toBe(true);
  });

  it('orders by newest write, then larger ring, then name descending; never lists p- rooms', async () => {
    await t.getPath('/r/alpha/say/a/one'); // creates events too, at the same instant
    clock.advanceMs(1000);
    await t.getPath('/r/beta/say/b/one');
    await t.getPath('/r/p-hidden/say/c/one');
    await t.getPath('/r/gamma/say/c/one');
    clock.advanceMs(1000);
    await t.getPath('/r/alpha/say/a/two');
    // alpha is newest. events, beta and gamma were all written at the same instant (their creation is
    // announced on events): events holds three announcements, the larger ring; beta and gamma tie on
    // size too, so the name decides, descending.
    expect((await rows()).map((r) => r.room)).toEqual(['alpha', 'events', 'gamma', 'beta']);
    await t.getPath('/r/zeta/say/z/a-much-longer-first-message');
    await t.getPath('/r/yak/say/y/x');
    // All four written at the same instant: the larger ring first, whatever the name (events holds five
    // announcements, alpha two messages, zeta one long one, yak one short one).
    expect((await rows()).map((r) => r.room)).toEqual(['events', 'alpha', 'zeta', 'yak', 'gamma', 'beta']);
    const all = await listing();
    expect(all.total).toBe(6);
    expect(all.bytes).toBe(
      (await Promise.all(['alpha', 'beta', 'gamma', 'events', 'zeta', 'yak'].map(exportBytes))).reduce(
        (a, b) => a + b,
      ),
    );
  });

  it('clamps limit like room reads and counts every room in total', async () => {
    for (let i = 0; i < 205; i++) await t.getPath(`/r/r${i}/say/n/hi`);
    expect((await listing('&limit=3')).rooms).toHaveLength(3);
    expect((await listing('&limit=0')).rooms).toHaveLength(1);
    expect((await listing('&limit=abc')).rooms).toHaveLength(50);
    expect((await listing('&limit=-4')).rooms).toHaveLength(50);
    expect((await listing('&limit=%EF%BC%92')).rooms).toHaveLength(2); // fullwidth 2, as int() reads it
    expect((await listing('&limit=999')).rooms).toHaveLength(200);
    expect((await listing('&limit=3')).total).toBe(206); // 205 rooms + events
    expect((await t.getPath('/rooms?limit=2')).body.split('\n')[0]).toMatch(/^# 2 of 206 rooms /);
  });

  it('measures engagement per room and pooled over the shown rooms', async () => {
    await t.getPath('/kv/plans/next/set/ship');
    for (let i = 0; i < 3; i++) await t.getPath(`/r/solo/say/s/hi-${i}`);
    for (const nick of ['a', 'b', 'a', 'b']) await t.getPath(`/r/chat/say/${nick}/hi-${nick}`);
    const view = await listing();
    // solo: 3 by s (run 3); chat: a b a b (run 1); events: 2 server lines (run 2) → 6 of 9.
    expect(view.engagement).toEqual({
      window_cap: 200,
      windowed_messages: 9,
      zero_response_share: 0.6667,
      nick_diversity: 0.4444, // {s, a, b, server} / 9, pooled rather than per room
      windowed_note_to_message_ratio: 0.1111,
    });
    const byRoom = Object.fromEntries((view.rooms as Row[]).map((r) => [r.room, r]));
    expect(byRoom.solo).toMatchObject({
      last_seq: 3,
      window: 3,
      zero_response_share: 1.0,
      nick_diversity: 0.3333,
    });
    expect(byRoom.chat).toMatchObject({
      last_seq: 4,
      window: 4,
      zero_response_share: 0.25,
      nick_diversity: 0.5,
    });
    // Python prints integral floats with a decimal point.
    expect((await t.getPath('/rooms?format=json')).body).toContain('"zero_response_share":1.0,');
    expect((await t.getPath('/rooms')).body.split('\n')).toContain(
      '# engagement over 9 msgs scanned: zero-response 67%, nick diversity 0.44, notes/msg 0.11',
    );
    expect(view.notes).toEqual({ total: 1, bytes: 4, capacity: 163840, capacity_per_namespace: 5120 });
  });

  it('bounds each window to the newest 200 records within 64 KiB', async () => {
    for (let i = 0; i < 210; i++) await t.getPath(`/r/busy/say/n${i % 3}/m${i}`);
    const long = 'x'.repeat(4000);
    for (let i = 0; i < 20; i++) await t.getPath(`/r/wide/say/w/${long}${i}`);
    const byRoom = Object.fromEntries((await rows()).map((r) => [r.room, r]));
    expect(byRoom.busy).toMatchObject({
      last_seq: 210,
      window: 200,
      zero_response_share: 0.005,
      nick_diversity: 0.015,
    });
    const record = Math.floor((await exportBytes('wide')) / 20);
    expect(byRoom.wide.window).toBe(Math.floor(65536 / record));
  });

  it('shows topics, cut to 120 code points, and follows topic changes at once', async () => {
    await t.getPath('/r/plain/say/a/hi');
    await t.getPath('/r/topical/say/a/hi');
    await t.getPath(`/kv/topic/topical/set/${'é'.repeat(119)}%F0%9F%98%80ab`);
    const byRoom = Object.fromEntries((await rows()).map((r) => [r.room, r]));
    expect(byRoom.plain.topic).toBeNull();
    expect(byRoom.topical.topic).toBe(`${'é'.repeat(119)}😀…`);
    await t.getPath('/kv/topic/plain/set/weekly%20sync');
    expect((await rows()).find((r) => r.room === 'plain')!.topic).toBe('weekly sync');
    expect((await t.getPath('/rooms')).body).toMatch(/^\/r\/plain .* ago {2}· weekly sync$/m);
  });

  it('lays the text out line by line with padded columns, sizes and ages', async () => {
    const long = 'a-room-name-longer-than-24-chars';
    await t.getPath('/r/alpha/say/alice/hello');
    clock.advanceMs(2 * 3600 * 1000 + 5000);
    await t.getPath(`/r/${long}/say/bob/hi`); // announced on events at the same instant
    await t.getPath('/kv/topic/alpha/set/general%20chat');
    clock.advanceMs(75_000);
    const size = {
      events: await exportBytes('events'),
      long: await exportBytes(long),
      alpha: await exportBytes('alpha'),
    };
    const total = size.events + size.long + size.alpha;
    expect(total).toBeLessThan(1024);
    const lines = (await t.getPath('/rooms')).body.split('\n');
    expect(lines).toEqual([
      `# 3 of 3 rooms (cap 5120, ${total}B of 5.0G stored), newest first`,
      `# ${LISTING_BANNER}`,
      // events and the long room tie on time: the larger ring (two announcements) comes first.
      '/r/events' +
        ' '.repeat(18) +
        ' seq 2' +
        ' '.repeat(6) +
        ' ' +
        `${size.events}B`.padStart(8) +
        '  1m ago',
      `/r/${long} seq 1` + ' '.repeat(6) + ' ' + `${size.long}B`.padStart(8) + '  1m ago',
      '/r/alpha' +
        ' '.repeat(19) +
        ' seq 1' +
        ' '.repeat(6) +
        ' ' +
        `${size.alpha}B`.padStart(8) +
        '  2h ago  · general chat',
      '# notes 1 of 163840 (12B total, 5120 per namespace, namespaces not listed)',
      // runs: alpha 1, long 1, events 2 → 4 of 4 unanswered; writers {alice, bob, server} / 4.
      '# engagement over 4 msgs scanned: zero-response 100%, nick diversity 0.75, notes/msg 0.25',
      '',
    ]);
  });

  it('is always current: idle times tick and writes show at once, through the cache', async () => {
    await t.getPath('/r/alpha/say/a/one');
    expect((await rows()).map((r) => [r.room, r.idle_seconds])).toEqual([
      ['events', 0], // same instant, larger ring
      ['alpha', 0],
    ]);
    clock.advanceMs(1500);
    expect((await rows())[0].idle_seconds).toBe(1);
    await t.getPath('/r/alpha/say/a/two');
    expect((await rows())[0]).toMatchObject({ room: 'alpha', last_seq: 2, idle_seconds: 0, window: 2 });
    clock.advanceMs(3 * 86400 * 1000);
    expect((await t.getPath('/rooms')).body).toMatch(/^\/r\/alpha .* 3d ago$/m);
  });

  it('drops reaped rooms at once and measures only what a compacted ring still holds', async () => {
    await t.close();
    clock = new ManualClock();
    t = await TestApp.start({ ...GENEROUS, ringBytes: 4096 }, clock);
    for (let i = 0; i < 120; i++) await t.getPath(`/r/ring/say/n${i % 2}/message-${i}`);
    await t.getPath('/r/idle/say/a/hi');
    const ring = (await rows()).find((r) => r.room === 'ring')!;
    const kept = (await t.getPath('/r/ring/export')).body.trimEnd().split('\n').length;
    expect(kept).toBeLessThan(120);
    expect(ring).toMatchObject({ last_seq: 120, window: kept, bytes: await exportBytes('ring') });
    clock.advanceMs(8 * 86400 * 1000);
    await t.getPath('/r/fresh/say/a/hi');
    await t.get(RoomReaperService).pass();
    expect((await rows()).map((r) => r.room)).toEqual(['events', 'fresh']); // same instant, events larger
    expect((await listing()).total).toBe(2);
  });

  it('rebuilds the same listing after a restart', async () => {
    for (const nick of ['a', 'b', 'b']) await t.getPath(`/r/kept/say/${nick}/hello-${nick}`);
    const before = await listing();
    await t.restart();
    // No tail is cached after the restart, so the windows are read from the newest 64 KiB of the rings.
    expect(t.get(TailCache).peek('kept')).toBeUndefined();
    expect(await listing()).toEqual(before);
  });
});

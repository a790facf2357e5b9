import { ManualClock } from '../../src/common/clock';
import { RoomReaperService } from '../../src/rooms/room-reaper.service';
import { json, TestApp } from '../support/test-app';

type Message = { seq: number; text: string; from: string };
const messages = (body: Record<string, unknown>): Message[] => body.messages as Message[];

describe('rooms: export, long-poll, classes and lifecycle', () => {
  let t: TestApp;
  let clock: ManualClock;
  beforeEach(async () => {
    clock = new ManualClock();
    t = await TestApp.start({ stillbornSeconds: 3600, ephemeralTtlSeconds: 900 }, clock);
  });
  afterEach(() => t.close());

  it('exports the ring byte for byte with the generation header', async () => {
    const missing = await t.getPath('/r/none/export');
    expect([missing.status, missing.body, missing.headers['x-room-generation']]).toEqual([200, '', '0']);
    const lines: string[] = [];
    for (const text of ['first', 'sécond ☃', 'third "quoted" \\ back']) {
      const reply = json(await t.getPath(`/r/x/say/n/${encodeURIComponent(text)}?format=json`));
      lines.push(JSON.stringify(reply.posted));
    }
    const exported = await t.getPath('/r/x/export');
    expect(exported.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(exported.headers['x-room-generation']).toBe('1');
    expect(exported.headers['cache-control']).toBe('no-store');
    expect(exported.rawPayload.toString('utf8')).toBe(lines.map((l) => `${l}\n`).join(''));
    expect((await t.getPath('/r/Bad/export')).status).toBe(400);
  });

  it('holds a long-poll until a write lands, and reports a quiet wait as held', async () => {
    await t.getPath('/r/poll/say/a/zero');
    const started = Date.now();
    const waiting = t.getPath('/r/poll?since=1&wait=5&format=json');
    await new Promise((r) => setTimeout(r, 100));
    await t.getPath('/r/poll/say/b/wake%20up');
    const woken = json(await waiting);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(messages(woken).map((m) => m.text)).toEqual(['wake up']);
    expect(woken.wait_held).toBeUndefined();

    const quiet = await t.getPath('/r/poll?since=2&wait=0.2&format=json');
    expect(json(quiet)).toMatchObject({ count: 0, last_seq: 2, wait_held: true });
    expect(quiet.headers['cache-control']).toBe('no-store');
    const noCursor = json(await t.getPath('/r/poll?wait=5&format=json'));
    expect(noCursor.count).toBe(2); // wait needs since: answered at once
  });

  it('hides e- records older than the TTL from reads and export', async () => {
    await t.getPath('/r/e-flash/say/a/old');
    clock.advanceMs(901_000);
    await t.getPath('/r/e-flash/say/a/new');
    expect(messages(json(await t.getPath('/r/e-flash?format=json'))).map((m) => m.text)).toEqual(['new']);
    const exported = (await t.getPath('/r/e-flash/export')).body;
    expect(exported).toContain('"text":"new"');
    expect(exported).not.toContain('"text":"old"');
    clock.advanceMs(901_000);
    // last_seq = min(since, head): the head counts expired records too
    expect(json(await t.getPath('/r/e-flash?format=json&since=1'))).toMatchObject({ count: 0, last_seq: 1 });
    expect(json(await t.getPath('/r/e-flash?format=json'))).toMatchObject({ count: 0, last_seq: 0 });
  });

  it('reaps idle rooms, keeps the generation, continues seq and announces the re-creation', async () => {
    await t.getPath('/r/short/say/a/only-one');
    for (const text of ['one', 'two']) await t.getPath(`/r/long/say/a/${text}`);
    clock.advanceMs(3600_000 + 1000);
    expect(await t.get(RoomReaperService).pass()).toBe(1); // only the stillborn "short"
    expect(json(await t.getPath('/r/short?format=json'))).toMatchObject({ count: 0, generation: 1 });
    expect(json(await t.getPath('/r/short?format=json&since=5'))).toMatchObject({ last_seq: 1 });
    expect((await t.getPath('/r/short/export')).headers['x-room-generation']).toBe('1');
    expect(json(await t.getPath('/r/long?format=json')).count).toBe(2);

    const again = json(await t.getPath('/r/short/say/a/back?format=json'));
    expect(again).toMatchObject({ generation: 2, last_seq: 2 });
    const events = messages(json(await t.getPath('/r/events?format=json')));
    expect(events.map((m) => [m.seq, m.text])).toEqual([
      [1, 'created short'],
      [2, 'created long'],
      [3, 'created short'],
    ]);

    clock.advanceMs(7 * 86400_000);
    await t.get(RoomReaperService).pass();
    expect(json(await t.getPath('/r/long?format=json'))).toMatchObject({ count: 0, generation: 1 });
  });

  it('compacts a full ring to its newest half and shows the gap through first_seq', async () => {
    await t.close();
    t = await TestApp.start({ ringBytes: 8192 }, clock);
    const text = 'y'.repeat(200);
    for (let i = 0; i < 60; i++) await t.getPath(`/r/ring/say/a/${text}${i}`);
    const all = json(await t.getPath('/r/ring?format=json&limit=200&since=0'));
    const seqs = messages(all).map((m) => m.seq);
    expect(seqs[seqs.length - 1]).toBe(60);
    expect(all.first_seq as number).toBeGreaterThan(1);
    const exported = (await t.getPath('/r/ring/export')).rawPayload;
    expect(exported.length).toBeLessThanOrEqual(8192);
    expect(
      exported
        .toString('utf8')
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l).seq),
    ).toEqual(seqs);
  });

  it('replays to the same state after a restart: reads, export bytes, generations', async () => {
    for (let i = 0; i < 30; i++) await t.getPath(`/r/keep/say/n/m${i}`);
    await t.getPath('/r/p-private/say/n/secret');
    clock.advanceMs(3600_000 + 1);
    await t.get(RoomReaperService).pass();
    await t.getPath('/r/p-private/say/n/again');
    const before = await Promise.all(
      ['/r/keep?format=json', '/r/keep/export', '/r/events/export', '/r/p-private?format=json'].map((u) =>
        t.getPath(u),
      ),
    );
    await t.restart();
    const after = await Promise.all(
      ['/r/keep?format=json', '/r/keep/export', '/r/events/export', '/r/p-private?format=json'].map((u) =>
        t.getPath(u),
      ),
    );
    expect(after.map((r) => r.body)).toEqual(before.map((r) => r.body));
    expect(json(after[3])).toMatchObject({ generation: 2, last_seq: 2 });
    const next = json(await t.getPath('/r/keep/say/n/after?format=json'));
    expect(next.last_seq).toBe(31);
  });
});

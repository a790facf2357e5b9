import { ManualClock } from '../../src/common/clock';
import { json, TestApp } from '../support/test-app';

interface Page {
  readonly messages: Array<{ seq: number; text: string }>;
  readonly first_seq: number | null;
  readonly last_seq: number;
  readonly next_before: number | null;
}

const LONG = 'x'.repeat(3000);

/** `count` messages of ~3 KB each, so 400 of them fill more than the 1 MiB a plain read scans. */
async function fill(t: TestApp, room: string, from: number, count: number): Promise<void> {
  for (let i = from; i < from + count; i++) {
    const reply = await t.post(`/r/${room}`, { from: 'archiver', text: `m${i} ${LONG}` });
    expect(reply.status).toBe(200);
  }
}

describe('paging for archivers: before= on room reads, after= on export (real HTTP, real ring files)', () => {
  let t: TestApp;
  afterEach(() => t.close());

  it('walks the whole ring back with before=, past the newest 1 MiB a plain read sees, each message once', async () => {
    t = await TestApp.start();
    await fill(t, 'archive', 1, 400);
    const plain = json(await t.getPath('/r/archive?since=0&limit=200&format=json')) as unknown as Page;
    expect(plain.first_seq).toBeGreaterThan(100); // the contract's read stops at the newest 1 MiB
    expect(plain).not.toHaveProperty('next_before'); // ordinary reads keep their exact keys

    const seen: number[] = [];
    let before = 1_000_000;
    for (let pages = 0; pages < 10; pages++) {
      const page = json(
        await t.getPath(`/r/archive?before=${before}&limit=150&format=json`),
      ) as unknown as Page;
      seen.unshift(...page.messages.map((m) => m.seq));
      if (page.next_before === null) break;
      expect(page.next_before).toBe(page.first_seq);
      before = page.next_before;
    }
    expect(seen).toEqual(Array.from({ length: 400 }, (_, i) => i + 1));

    const text = await t.getPath('/r/archive?before=51&limit=10');
    expect(text.body.split('\n')[0]).toBe('# room archive  messages 10  range 41..50');
    expect(text.body).toContain('\nolder: /r/archive?before=41\n');
    const within = json(await t.getPath('/r/archive?before=51&since=45&format=json')) as unknown as Page;
    expect(within.messages.map((m) => m.seq)).toEqual([46, 47, 48, 49, 50]);
    expect(within.next_before).toBeNull();
    const oldest = json(await t.getPath('/r/archive?before=1&format=json')) as unknown as Page;
    expect([oldest.messages, oldest.last_seq, oldest.next_before]).toEqual([[], 0, null]);
  });

  it('exports only the lines after a seq, byte for byte, so history is fetched once', async () => {
    t = await TestApp.start();
    await fill(t, 'log', 1, 30);
    const whole = await t.getPath('/r/log/export');
    const lastSeq = 30;
    await fill(t, 'log', 31, 5);
    const tail = await t.getPath(`/r/log/export?after=${lastSeq}`);
    expect(tail.status).toBe(200);
    expect(tail.headers['x-room-generation']).toBe('1');
    expect(
      tail.body
        .split('\n')
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as { seq: number }).seq),
    ).toEqual([31, 32, 33, 34, 35]);
    const again = await t.getPath('/r/log/export');
    expect(Buffer.concat([whole.rawPayload, tail.rawPayload]).equals(again.rawPayload)).toBe(true);
    expect((await t.getPath('/r/log/export?after=35')).body).toBe('');
    expect((await t.getPath('/r/log/export?after=0')).rawPayload.equals(again.rawPayload)).toBe(true);
  });

  it('refuses a malformed cursor with a 400 naming it, after the room name', async () => {
    t = await TestApp.start();
    await t.getPath('/r/lobby/say/ann/hello');
    for (const [path, name] of [
      ['/r/lobby?before=abc', 'before'],
      ['/r/lobby?before=-1', 'before'],
      ['/r/lobby/export?after=1.5', 'after'],
      ['/r/lobby/export?after=', 'after'],
    ]) {
      const reply = await t.getPath(path);
      expect([path, reply.status, reply.body.split(':')[0]]).toEqual([path, 400, `400 bad ${name}`]);
      expect(reply.body).toContain(`${name}=41`);
    }
    expect((await t.getPath('/r/Lobby?before=abc')).body.startsWith("400 bad name 'Lobby'")).toBe(true);
    expect((await t.getPath('/r/lobby?since=abc&limit=x')).status).toBe(200); // the contract's never-refused params
  });

  it('hides expired records of e- rooms from pages and from export after=', async () => {
    const clock = new ManualClock();
    t = await TestApp.start({ ephemeralTtlSeconds: 60 }, clock);
    for (let i = 1; i <= 3; i++) await t.getPath(`/r/e-chat/say/ann/old${i}`);
    clock.advanceMs(120_000);
    for (let i = 4; i <= 5; i++) await t.getPath(`/r/e-chat/say/ann/new${i}`);
    const page = json(await t.getPath('/r/e-chat?before=100&format=json')) as unknown as Page;
    expect(page.messages.map((m) => m.seq)).toEqual([4, 5]);
    const exported = (await t.getPath('/r/e-chat/export?after=1')).body;
    expect(
      exported
        .split('\n')
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as { seq: number }).seq),
    ).toEqual([4, 5]);
  });
});

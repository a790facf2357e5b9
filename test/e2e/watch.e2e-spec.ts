import { WaitSlots } from '../../src/access/wait-slots';
import { TestApp } from '../support/test-app';

interface WatchReply {
  cursor: string;
  count: number;
  more: boolean;
  messages: Array<{ room: string; message: { seq: number; text: string } }>;
  resets: Array<{ room: string; generation: number; previous: number }>;
  gaps: Array<{ room: string; from: number; to: number; reason: string }>;
  wait_held?: boolean;
}

const rooms = (count: number, prefix = 'w') => Array.from({ length: count }, (_, i) => `${prefix}${i}`);

describe('GET /watch: one long-poll over many rooms (real HTTP on a real port)', () => {
  let t: TestApp;
  let base: string;
  afterEach(() => t.close());

  async function start(overrides: Parameters<typeof TestApp.start>[0] = {}): Promise<void> {
    t = await TestApp.start(overrides);
    base = await t.listen();
  }
  const say = (room: string, text: string) => fetch(`${base}/r/${room}/say/ann/${encodeURIComponent(text)}`);
  const watch = async (query: string): Promise<WatchReply> => {
    const reply = await fetch(`${base}/watch?format=json&${query}`);
    expect(reply.status).toBe(200);
    return (await reply.json()) as WatchReply;
  };

  it('holds one wait slot and spends one read token for 32 rooms, and any room wakes it', async () => {
    await start({ rateRead: 3, maxWaitersPerIp: 1 });
    const list = rooms(32);
    const parked = fetch(`${base}/watch?format=json&wait=20&rooms=${list.map((r) => `${r}:0`).join(',')}`);
    const slots = t.get(WaitSlots);
    for (let i = 0; i < 100 && slots.inUse === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect([slots.inUse, slots.clients]).toEqual([1, 1]);
    expect((await say('w17', 'wake the watch')).status).toBe(200);
    const reply = (await (await parked).json()) as WatchReply;
    expect(reply.messages).toEqual([
      { room: 'w17', message: expect.objectContaining({ seq: 1, text: 'wake the watch' }) },
    ]);
    expect(reply.cursor.split(',')).toHaveLength(32);
    expect(reply.cursor.split(',')[17]).toBe('w17:1:1');
    expect(slots.inUse).toBe(0);
    // The watch spent one of the three read tokens: two more reads pass, the third is refused.
    expect((await fetch(`${base}/r/w1`)).status).toBe(200);
    expect((await fetch(`${base}/r/w2`)).status).toBe(200);
    expect((await fetch(`${base}/r/w3`)).status).toBe(429);
  });

  it('tags every message with its room, shares the limit fairly, and hands back one cursor', async () => {
    await start();
    for (let i = 1; i <= 5; i++) await say('a', `a${i}`);
    for (let i = 1; i <= 2; i++) await say('b', `b${i}`);
    const first = await watch('rooms=a:0,b:0,c&limit=4&wait=0');
    expect(first.messages.map((m) => `${m.room}${m.message.seq}`)).toEqual(['a1', 'a2', 'b1', 'b2']);
    expect([first.more, first.cursor]).toEqual([true, 'a:2:1,b:2:1,c:0:0']);
    const second = await watch(`rooms=${first.cursor}&wait=0`);
    expect(second.messages.map((m) => `${m.room}${m.message.seq}`)).toEqual(['a3', 'a4', 'a5']);
    expect([second.more, second.cursor]).toEqual([false, 'a:5:1,b:2:1,c:0:0']);

    const text = await (await fetch(`${base}/watch?rooms=a:3,b:1&wait=0`)).text();
    const lines = text.split('\n');
    expect(lines[0]).toBe('# watch  rooms 2  messages 3');
    expect(lines[1].startsWith('!! UNTRUSTED CONTENT — ')).toBe(true);
    expect(lines.slice(3, 6).map((l) => l.replace(/\] \S+ /, '] '))).toEqual([
      '[a 4] <~ann> a4',
      '[a 5] <~ann> a5',
      '[b 2] <~ann> b2',
    ]);
    expect(lines.slice(6)).toEqual(['', 'next: /watch?rooms=a:5:1,b:2:1', '']);
  });

  it('answers an idle watch after its wait with wait_held, and at once without a slot', async () => {
    await start({ maxWaitersTotal: 0 });
    const refused = await watch('rooms=x,y&wait=5');
    expect([refused.count, refused.wait_held]).toEqual([0, false]);
    const text = await (await fetch(`${base}/watch?rooms=x&wait=5`)).text();
    expect(text).toContain('\n# wait: not held — all 0 on this instance are busy;');
    await t.close();
    await start();
    const started = Date.now();
    const held = await watch('rooms=x,y&wait=0.3');
    expect([held.count, held.wait_held, held.cursor]).toEqual([0, true, 'x:0:0,y:0:0']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });

  it('refuses a bad room list with a 400 naming rooms and the correction', async () => {
    await start({ watchMaxRooms: 4 });
    for (const [query, problem] of [
      ['', 'it is empty'],
      ['rooms=a,b,c,d,e', 'it lists 5 rooms and at most 4 are allowed'],
      ['rooms=Lobby:1', "'Lobby' is not a room name"],
      ['rooms=a:1x', "'1x' after a: is not a seq"],
      ['rooms=a:1:2:3', "'a:1:2:3' has more than three parts"],
      ['rooms=a,a:4', 'it lists a twice'],
    ]) {
      const reply = await fetch(`${base}/watch?${query}`);
      const body = await reply.text();
      expect([query, reply.status, body.startsWith(`400 bad rooms: ${problem}`)]).toEqual([query, 400, true]);
      expect(body).toContain('<room>:<since>');
    }
  });
});

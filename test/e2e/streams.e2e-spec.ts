import { request } from 'node:http';
import { StreamSlots } from '../../src/access/stream-slots';
import { SseClient } from '../support/sse-client';
import { TestApp } from '../support/test-app';

interface Message {
  room: string;
  message: { seq: number; text: string };
}

const seqsOf = (client: SseClient, room?: string) =>
  client
    .messages()
    .map((e) => JSON.parse(e.data) as Message)
    .filter((m) => room === undefined || m.room === room)
    .map((m) => m.message.seq);

/** The raw bytes of a stream for `ms` milliseconds (comments included, which SseClient drops). */
function rawFor(url: string, ms: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    const req = request(url, (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
    });
    req.on('error', reject);
    req.end();
    setTimeout(() => {
      req.destroy();
      resolve(body);
    }, ms);
  });
}

describe('event streams (SSE) on a real port: format, caps, refusals, heartbeats, shutdown', () => {
  let t: TestApp;
  let base: string;
  const open: SseClient[] = [];
  afterEach(async () => {
    open.splice(0).forEach((client) => client.cut());
    await t.close();
  });

  async function start(overrides: Parameters<typeof TestApp.start>[0] = {}): Promise<void> {
    t = await TestApp.start(overrides);
    base = await t.listen();
  }
  async function stream(path: string, headers: Record<string, string> = {}): Promise<SseClient> {
    const client = await SseClient.open(`${base}${path}`, headers);
    open.push(client);
    return client;
  }
  const say = (room: string, text: string) =>
    fetch(`${base}/r/${room}/say/ann/${encodeURIComponent(text)}`).then((r) => expect(r.status).toBe(200));

  it('starts with ready, sends each applied message once with an id that resumes exactly', async () => {
    await start();
    await say('lobby', 'one');
    const first = await stream('/r/lobby/sse?since=0');
    expect([first.status, first.headers['content-type'], first.headers['cache-control']]).toEqual([
      200,
      'text/event-stream; charset=utf-8',
      'no-store',
    ]);
    await say('lobby', 'two');
    await first.until(() => first.messages().length === 2);
    expect(first.events[0]).toMatchObject({ event: 'ready', id: 'lobby:0:1' });
    expect(JSON.parse(first.events[0].data)).toEqual({
      cursor: 'lobby:0:1',
      rooms: [{ room: 'lobby', generation: 1, head: 1 }],
      heartbeat_seconds: 15,
    });
    expect(first.messages().map((e) => e.id)).toEqual(['lobby:1:1', 'lobby:2:1']);
    const posted = JSON.parse(first.messages()[1].data) as Message;
    expect(posted).toMatchObject({ room: 'lobby', message: { seq: 2, text: 'two' } });
    first.cut();
    await say('lobby', 'three');
    await say('lobby', 'four');
    const resumed = await stream('/r/lobby/sse', { 'last-event-id': 'lobby:2:1' });
    await resumed.until(() => resumed.messages().length === 2);
    expect(seqsOf(resumed)).toEqual([3, 4]);
    expect(resumed.events.filter((e) => e.event !== 'message').map((e) => e.event)).toEqual(['ready']);
  });

  it('streams a set of rooms: each message tagged with its room, the id the cursor of all of them', async () => {
    await start();
    const many = await stream('/watch/sse?rooms=a,b:0,c');
    await say('b', 'b1');
    await say('a', 'a1');
    await many.until(() => many.messages().length === 2);
    expect(many.messages().map((e) => [(JSON.parse(e.data) as Message).room, e.id])).toEqual([
      ['b', 'a:0:0,b:1:1,c:0:0'],
      ['a', 'a:1:1,b:1:1,c:0:0'],
    ]);
  });

  it('caps streams per client and in total with a 429 naming the cap, freed when a stream ends', async () => {
    await start({ maxStreamsPerIp: 2 });
    const a = await stream('/r/x/sse');
    await stream('/watch/sse?rooms=y,z');
    const refused = await stream('/r/x/sse');
    expect([refused.status, refused.headers['retry-after']]).toEqual([429, '10']);
    expect(await refused.text()).toMatch(
      /^429 stream limit: you hold all 2 event streams one client may have/,
    );
    a.cut();
    const slots = t.get(StreamSlots);
    for (let i = 0; i < 100 && slots.inUse > 1; i++) await new Promise((r) => setTimeout(r, 20));
    expect(slots.inUse).toBe(1);
    expect((await stream('/r/x/sse')).status).toBe(200);
    await t.close();
    await start({ maxStreamsTotal: 0 });
    const none = await stream('/r/x/sse');
    expect(
      (await none.text()).startsWith('429 stream limit: all 0 event streams of this instance are open'),
    ).toBe(true);
  });

  it('refuses bad input with a 400 naming the parameter, before any stream opens', async () => {
    await start({ watchMaxRooms: 3 });
    for (const [path, headers, prefix] of [
      ['/r/Lobby/sse', {}, "400 bad name 'Lobby'"],
      ['/r/lobby/sse?since=x', {}, "400 bad since: 'x' is not a seq"],
      ['/watch/sse?rooms=a,b,c,d', {}, '400 bad rooms: it lists 4 rooms and at most 3 are allowed'],
      ['/watch/sse', {}, '400 bad rooms: it is empty'],
      ['/r/lobby/sse', { 'last-event-id': 'lobby;7' }, "400 bad Last-Event-ID: 'lobby;7' is not a room name"],
    ] as const) {
      const client = await stream(path, headers);
      expect([path, client.status, (await client.text()).startsWith(prefix)]).toEqual([path, 400, true]);
    }
    expect(t.get(StreamSlots).inUse).toBe(0);
  });

  it('sends heartbeat comments on a quiet stream, answers HEAD with the headers only', async () => {
    await start({ streamHeartbeatSeconds: 1 });
    const raw = await rawFor(`${base}/r/quiet/sse`, 2600);
    expect(raw.startsWith('retry: 2000\n\nid: quiet:0:0\nevent: ready\n')).toBe(true);
    expect(raw.split('\n').filter((line) => line === ':').length).toBeGreaterThanOrEqual(2);
    const head = await fetch(`${base}/r/quiet/sse`, { method: 'HEAD' });
    expect([head.status, head.headers.get('content-type'), await head.text()]).toEqual([
      200,
      'text/event-stream; charset=utf-8',
      '',
    ]);
  });

  it('lets allowed browser origins read streams and send Last-Event-ID and Idempotency-Key', async () => {
    await start({ corsOrigins: 'https://app.example' });
    const client = await stream('/r/lobby/sse', { origin: 'https://app.example' });
    expect(client.headers['access-control-allow-origin']).toBe('https://app.example');
    const preflight = await fetch(`${base}/r/lobby`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, idempotency-key, last-event-id',
      },
    });
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get('access-control-allow-headers')).toBe(
      'Accept, Accept-Language, Content-Language, Content-Type, Idempotency-Key, Last-Event-ID',
    );
  });

  it('ends every stream with a closed event at shutdown, and the shutdown does not wait for them', async () => {
    await start();
    const clients = [await stream('/r/a/sse'), await stream('/watch/sse?rooms=a,b')];
    await Promise.all(clients.map((c) => c.until(() => c.events.length > 0)));
    const started = Date.now();
    await t.app.close();
    await Promise.all(clients.map((c) => c.until(() => c.ended)));
    expect(Date.now() - started).toBeLessThan(3000);
    for (const client of clients) {
      const last = client.events[client.events.length - 1];
      expect([last.event, (JSON.parse(last.data) as { reason: string }).reason]).toEqual([
        'closed',
        'shutdown',
      ]);
    }
    t = await TestApp.start(); // afterEach closes something
  });

  it('closes a live stream whose client stops reading, with a final event, and the reader resumes', async () => {
    await start({ streamBufferKb: 64 });
    const rooms = ['s1', 's2', 's3'];
    const slow = await stream(`/watch/sse?rooms=${rooms.join(',')}`);
    await slow.until(() => slow.events.length === 1); // ready: live from here
    slow.pause();
    // ~24 MB: more than the kernel's socket buffers on both ends of a loopback connection.
    const text = 'é'.repeat(4000);
    let written = 0;
    const refused: number[] = [];
    for (let i = 0; i < 2000 && !slow.ended; i += 8) {
      const replies = await Promise.all(
        Array.from({ length: 8 }, (_, k) =>
          fetch(`${base}/r/${rooms[(i + k) % 3]}`, {
            method: 'POST',
            body: JSON.stringify({ from: 'flood', text: `${i + k} ${text}` }),
          }),
        ),
      );
      for (const reply of replies) {
        await reply.arrayBuffer();
        if (reply.status === 200) written += 1;
        else refused.push(reply.status);
      }
      if (t.get(StreamSlots).inUse === 0) break; // the server ended it
    }
    expect([t.get(StreamSlots).inUse, refused]).toEqual([0, []]);
    slow.resume();
    // Everything the kernel buffered for the paused reader (megabytes) is read before the end.
    await slow.until(() => slow.ended, 60_000, 'the slow stream ending after what it was sent');
    const last = slow.events[slow.events.length - 1];
    expect([last.event, (JSON.parse(last.data) as { reason: string }).reason]).toEqual([
      'closed',
      'slow_consumer',
    ]);
    const resumeFrom = slow.messages().at(-1)?.id ?? slow.events[0].id!;
    const resumed = await stream(`/watch/sse?rooms=${rooms.join(',')}`, { 'last-event-id': resumeFrom });
    const slowCount = slow.messages().length;
    await resumed.until(
      () => slowCount + resumed.messages().length >= written,
      60_000,
      `the resumed stream delivering the ${written} written messages after the slow stream's ${slowCount}`,
    );
    const all = [...slow.messages(), ...resumed.messages()].map((e) => JSON.parse(e.data) as Message);
    expect(all).toHaveLength(written);
    for (const room of rooms) {
      const seqs = all.filter((m) => m.room === room).map((m) => m.message.seq);
      expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    }
    expect(resumed.events.filter((e) => e.event === 'gap')).toEqual([]);
  }, 120_000);

  it('ends a stream whose client takes nothing before the send deadline would reset it', async () => {
    await start({ streamBufferKb: 65_536, sendDeadlineSeconds: 8 }); // a buffer too large to trip first
    const stuck = await stream('/r/stuck/sse');
    await stuck.until(() => stuck.events.length === 1);
    stuck.pause();
    const text = 'é'.repeat(4000);
    const slots = t.get(StreamSlots);
    const written = Date.now();
    for (let i = 0; i < 3000 && slots.inUse > 0; i += 8) {
      await Promise.all(
        Array.from({ length: 8 }, (_, k) =>
          fetch(`${base}/r/stuck`, {
            method: 'POST',
            body: JSON.stringify({ from: 'f', text: `${i + k} ${text}` }),
          }),
        ),
      );
      if (Date.now() - written > 2000) await new Promise((r) => setTimeout(r, 200)); // then stop writing
    }
    expect(slots.inUse).toBe(0); // ended itself at half the deadline, not by the reset
    stuck.resume();
    await stuck.until(() => stuck.ended);
    const last = stuck.events[stuck.events.length - 1];
    expect([last.event, (JSON.parse(last.data) as { reason: string }).reason]).toEqual(['closed', 'stalled']);
  }, 120_000);
});

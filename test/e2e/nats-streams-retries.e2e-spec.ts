import { deleteStream, NATS_URL, uniqueStreamName } from '../support/nats-stream';
import { sendAndDrop } from '../support/dropped-request';
import { seededRandom } from '../support/seeded-random';
import { ServiceProcess } from '../support/service-process';
import { SseClient, SseEvent } from '../support/sse-client';
import { makeTempDir } from '../support/temp-dir';

interface Message {
  room: string;
  message: { seq: number; text: string };
}

/**
 * The sizes of the two runs: the suite's counts race both nodes' appends and drop connections
 * hundreds of times; the issue's figures are the long run (see README):
 * `AGENT_CHAT_STREAM_MESSAGES=10000 AGENT_CHAT_RETRIED_WRITES=1000`.
 */
const STREAMED = Number(process.env.AGENT_CHAT_STREAM_MESSAGES ?? 2000);
const RETRIED = Number(process.env.AGENT_CHAT_RETRIED_WRITES ?? 250);
const count = (n: number) => n.toLocaleString('en');

/** Runs `work` over `items` with at most `limit` at once. */
async function pool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

describe('two nodes on one JetStream stream: streams resume across nodes, retried writes land once (real nats-server)', () => {
  const stream = uniqueStreamName('streams-retries');
  const dirs = [makeTempDir('i28-node-a'), makeTempDir('i28-node-b')];
  let nodes: ServiceProcess[];

  beforeAll(async () => {
    const env = (root: string) => ({
      CHAT_ROOT: root,
      CHAT_LOG_BACKEND: 'nats',
      CHAT_NATS_URL: NATS_URL,
      CHAT_NATS_STREAM: stream,
      CHAT_DUPE_FILTER_SECONDS: '0',
    });
    nodes = await ServiceProcess.startAll(dirs.map((dir) => () => ServiceProcess.start(env(dir.path))));
  }, 120_000);

  afterAll(async () => {
    await Promise.all((nodes ?? []).map((node) => node.stop()));
    await deleteStream(stream);
    for (const dir of dirs) dir.remove();
  });

  /**
   * A keyed POST until it is answered 200 (a 503 when the two nodes' appends raced is retried, as any
   * client would, with the same key). Returns the seq the write has.
   */
  async function keyedPost(node: ServiceProcess, room: string, text: string, key: string): Promise<number> {
    for (let attempt = 0; ; attempt++) {
      const reply = await fetch(node.url(`/r/${room}?format=json`), {
        method: 'POST',
        headers: { 'idempotency-key': key },
        body: JSON.stringify({ from: 'writer', text }),
      }).catch(() => null);
      if (reply?.status === 200) return ((await reply.json()) as { posted: { seq: number } }).posted.seq;
      if (attempt > 50) throw new Error(`write ${key} never answered 200 (last: ${reply?.status})`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  it(`delivers ${count(STREAMED)} messages written through both nodes exactly once to streams cut at random and resumed on either node`, async () => {
    const rooms = Array.from({ length: 20 }, (_, i) => `nats-flaky${i}`);
    const perRoom = Math.ceil(STREAMED / rooms.length);
    const total = rooms.length * perRoom;
    const random = seededRandom(2828);
    const received: SseEvent[] = [];
    let lastId: string | undefined;
    let connections = 0;
    const reader = (async () => {
      const deadline = Date.now() + 240_000;
      while (received.length < total && Date.now() < deadline) {
        const node = nodes[connections++ % 2];
        const headers: Record<string, string> = lastId === undefined ? {} : { 'last-event-id': lastId };
        const client = await SseClient.open(
          node.url(`/watch/sse?rooms=${rooms.map((r) => `${r}:0`).join(',')}`),
          headers,
        );
        // Cut often enough that the suite's count sees dozens of resumes on an idle machine.
        await client
          .until(() => received.length + client.messages().length >= total, 20 + random() * 180)
          .catch(() => undefined);
        client.cut();
        for (const event of client.events) {
          if (event.event !== 'ready') received.push(event);
          if (event.id !== undefined) lastId = event.id;
        }
      }
    })();
    await pool(rooms, rooms.length, async (room) => {
      for (let i = 1; i <= perRoom; i++) {
        const key = `stream-write-${room}-${String(i).padStart(6, '0')}`;
        await keyedPost(nodes[i % 2], room, `${room} message ${i}`, key);
      }
    });
    await reader;
    expect(connections).toBeGreaterThan(5);
    expect(received.filter((e) => e.event !== 'message')).toEqual([]);
    const messages = received.map((e) => JSON.parse(e.data) as Message);
    expect(messages).toHaveLength(total);
    for (const room of rooms) {
      const texts = messages.filter((m) => m.room === room).map((m) => m.message.text);
      expect(texts).toEqual(Array.from({ length: perRoom }, (_, i) => `${room} message ${i + 1}`));
    }
  }, 300_000);

  it(`stores exactly ${count(RETRIED)} messages for ${count(RETRIED)} writes each retried 3 times over both nodes with connections dropped`, async () => {
    const rooms = Array.from({ length: 10 }, (_, i) => `retry${i}`);
    const random = seededRandom(1000);
    const writes = Array.from({ length: RETRIED }, (_, i) => ({
      i,
      room: rooms[i % rooms.length],
      text: `retried write ${i}`,
      key: `retried-write-${String(i).padStart(8, '0')}`,
      drops: [0, 1, 2].map(() => (random() < 0.5 ? 'after-send' : 'at-reply') as 'after-send' | 'at-reply'),
    }));
    const answered = new Map<string, number>();
    await pool(writes, 40, async (write) => {
      // Three attempts dropped before their reply is read, on alternating nodes, overlapping each other.
      await Promise.all(
        write.drops.map((drop, attempt) => {
          const node = nodes[(write.i + attempt) % 2];
          const viaGet = attempt === 1;
          return viaGet
            ? sendAndDrop(
                node.url(
                  `/r/${write.room}/say/writer/${encodeURIComponent(write.text)}?idempotency_key=${write.key}`,
                ),
                { method: 'GET', drop },
              )
            : sendAndDrop(node.url(`/r/${write.room}`), {
                method: 'POST',
                headers: { 'content-type': 'application/json', 'idempotency-key': write.key },
                body: JSON.stringify({ from: 'writer', text: write.text }),
                drop,
              });
        }),
      );
      answered.set(write.key, await keyedPost(nodes[(write.i + 1) % 2], write.room, write.text, write.key));
    });
    const exports = await Promise.all(
      rooms.map(async (room) => {
        for (let tries = 0; ; tries++) {
          const [a, b] = await Promise.all(
            nodes.map(async (n) => (await fetch(n.url(`/r/${room}/export`))).text()),
          );
          if (a === b || tries > 100) {
            expect(b).toBe(a);
            return a;
          }
          await new Promise((r) => setTimeout(r, 100));
        }
      }),
    );
    const stored = exports.flatMap((body) =>
      body
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { seq: number; text: string }),
    );
    expect(stored).toHaveLength(RETRIED);
    expect(new Set(stored.map((s) => s.text)).size).toBe(RETRIED);
    for (const write of writes) {
      const line = stored.find((s) => s.text === write.text);
      expect(line?.seq).toBe(answered.get(write.key));
    }
  }, 300_000);
});

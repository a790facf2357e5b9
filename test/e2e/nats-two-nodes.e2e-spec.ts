import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateSigningKey } from '../../src/identity/signing-key';
import { ChatEvent } from '../../src/events/chat-event';
import { decodeEvent } from '../../src/events/event-codec';
import { JetStreamEventLog } from '../../src/log/nats/jetstream-event-log';
import { lastLine, saySignedUrl, setSignedUrl } from '../support/notes-kit';
import { deleteStream, NATS_URL, natsLogOptions, uniqueStreamName } from '../support/nats-stream';
import { ServiceProcess } from '../support/service-process';
import { makeTempDir } from '../support/temp-dir';

interface Acked {
  readonly seq: number;
  readonly text: string;
}

async function post(node: ServiceProcess, room: string, text: string): Promise<Response> {
  return fetch(node.url(`/r/${room}?format=json`), {
    method: 'POST',
    body: JSON.stringify({ from: 'racer', text }),
  });
}

/** `count` writes one after the other; returns the acknowledged ones. */
async function writer(node: ServiceProcess, room: string, name: string, count: number): Promise<Acked[]> {
  const acked: Acked[] = [];
  for (let i = 0; i < count; i++) {
    const text = `${name} writes message ${i} of ${count}`;
    const response = await post(node, room, text);
    expect(response.status).toBe(200);
    acked.push({ seq: ((await response.json()) as { posted: { seq: number } }).posted.seq, text });
  }
  return acked;
}

async function exportOf(node: ServiceProcess, room: string): Promise<string> {
  return (await fetch(node.url(`/r/${room}/export`))).text();
}

/** Both nodes' exports once they agree (the other node applies a write when its tail delivers it). */
async function agreedExport(a: ServiceProcess, b: ServiceProcess, room: string): Promise<string> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const [fromA, fromB] = await Promise.all([exportOf(a, room), exportOf(b, room)]);
    if (fromA === fromB || Date.now() > deadline) {
      expect(fromB).toBe(fromA);
      return fromA;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('two service nodes on one JetStream stream, writers racing (real nats-server)', () => {
  const stream = uniqueStreamName('two-nodes');
  const dirs = [makeTempDir('nats-node-a'), makeTempDir('nats-node-b')];
  let a: ServiceProcess;
  let b: ServiceProcess;
  const serviceKey = generateSigningKey(); // one key file shared by both nodes (issue 29)

  beforeAll(async () => {
    const keyFile = join(dirs[0].path, 'shared-service-key');
    writeFileSync(keyFile, `${serviceKey.seedHex}\n`);
    const env = (root: string) => ({
      CHAT_ROOT: root,
      CHAT_SERVICE_KEY_FILE: keyFile,
      CHAT_LOG_BACKEND: 'nats',
      CHAT_NATS_URL: NATS_URL,
      CHAT_NATS_STREAM: stream,
    });
    [a, b] = await Promise.all(dirs.map((dir) => ServiceProcess.start(env(dir.path))));
  }, 60_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await deleteStream(stream);
    for (const dir of dirs) dir.remove();
  });

  it('keeps one room’s seqs contiguous and unique, every ack in place, and both exports identical', async () => {
    const writers = [a, b].flatMap((node, n) =>
      [0, 1, 2].map((w) => writer(node, 'race', `node${n}-writer${w}`, 15)),
    );
    const acked = (await Promise.all(writers)).flat();
    const exported = await agreedExport(a, b, 'race');
    const lines = exported
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Acked);
    expect(lines.map((line) => line.seq)).toEqual(lines.map((_, i) => i + 1));
    expect(lines).toHaveLength(acked.length);
    const bySeq = new Map(lines.map((line) => [line.seq, line.text]));
    for (const write of acked) expect(bySeq.get(write.seq)).toBe(write.text);
  });

  it('states identical signed heads for the room on both nodes, apart from time and signature (issue 29)', async () => {
    const exported = await agreedExport(a, b, 'race');
    const [headA, headB] = await Promise.all(
      [a, b].map(
        async (node) => (await (await fetch(node.url('/r/race/head'))).json()) as Record<string, unknown>,
      ),
    );
    const compared = ({ time: _time, signature: _signature, ...rest }: Record<string, unknown>) => rest;
    expect(compared(headB)).toEqual(compared(headA));
    expect(headA).toMatchObject({
      room: 'race',
      service_did: serviceKey.did,
      last_seq: exported.trimEnd().split('\n').length,
    });
    const heads = await Promise.all(
      [a, b].map(async (node) => (await fetch(node.url('/r/race/export'))).headers.get('x-chain-head')),
    );
    expect(heads).toEqual([headA.head, headA.head]);
  });

  it('creates a room once when its first writes race on both nodes: one generation, one announcement', async () => {
    const room = `fresh-${Date.now()}`;
    const replies = await Promise.all(
      [a, b, a, b].map((node, i) => post(node, room, `first write number ${i} to a new room`)),
    );
    const bodies = await Promise.all(replies.map((r) => r.json() as Promise<{ generation: number }>));
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(bodies.map((body) => body.generation))).toEqual(new Set([1]));
    const events = await agreedExport(a, b, 'events');
    expect(events.split('\n').filter((line) => line.includes(`"created ${room}"`))).toHaveLength(1);
  });

  it('gives a compare-and-set and an if_absent race exactly one winner across the nodes', async () => {
    const key = `k${Date.now()}`;
    const absent = await Promise.all(
      [a, b, a, b, a, b].map((node, i) =>
        fetch(node.url(`/kv/race/${key}`), {
          method: 'POST',
          body: JSON.stringify({ value: `claim ${i}`, if_absent: true }),
        }),
      ),
    );
    expect(absent.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    const cas = await Promise.all(
      [a, b, a, b].map((node, i) =>
        fetch(node.url(`/kv/race/${key}`), {
          method: 'POST',
          body: JSON.stringify({
            value: `swap ${i}`,
            if: `claim ${absent.findIndex((r) => r.status === 200)}`,
          }),
        }),
      ),
    );
    expect(cas.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
  });

  it('refuses on node B a signed URL already used on node A', async () => {
    const key = generateSigningKey();
    const url = saySignedUrl(key, 'signed-race', '41', 'signed once, replayed elsewhere');
    expect((await fetch(a.url(url))).status).toBe(200);
    const replay = await fetch(b.url(url));
    expect([replay.status, (await replay.text()).startsWith('400 nonce 41 is not greater than 41')]).toEqual([
      400,
      true,
    ]);
  });

  it('gives a d- claim one winner, and never lets an unsigned message into a room claimed through the other node', async () => {
    const [alice, bob] = [generateSigningKey(), generateSigningKey()];
    const rooms = Array.from({ length: 24 }, (_, i) => `d-claim-${Date.now()}-${i}`);
    await Promise.all(
      rooms.map(async (room) => {
        const claim = (node: ServiceProcess, key: typeof alice) =>
          fetch(node.url(setSignedUrl(key, { ns: 'room-owners', key: room, nonce: '1', value: key.did })));
        const [byAlice, byBob, message] = await Promise.all([
          claim(a, alice),
          claim(b, bob),
          post(b, room, `an unsigned message racing the claim of ${room}`),
        ]);
        // A d- room is claimable only before its first message: when the message lands first, nobody
        // owns it; otherwise exactly one claim wins, and the message is refused if it comes after.
        const won = [byAlice, byBob].filter((r) => r.status === 200);
        expect(won.length).toBe(message.status === 200 ? won.length : 1);
        expect(won.length).toBeLessThanOrEqual(1);
        expect([byAlice.status, byBob.status, message.status].every((s) => s === 200 || s === 403)).toBe(
          true,
        );
        if (won.length === 0) return;
        const winner = byAlice.status === 200 ? alice : bob;
        for (const node of [a, b]) {
          const deadline = Date.now() + 10_000;
          let owner = '';
          while (owner !== winner.did && Date.now() < deadline) {
            owner = lastLine(await (await fetch(node.url(`/kv/room-owners/${room}`))).text());
          }
          expect(owner).toBe(winner.did);
        }
      }),
    );
    // In the one log order a claimed room holds no unsigned message: one before the claim would have
    // made the claim too late (claims are from birth), one after it is refused by the gate.
    const log = new JetStreamEventLog(natsLogOptions(stream));
    await log.open();
    const events: Array<{ offset: number; event: ChatEvent }> = [];
    for await (const record of log.read(0))
      events.push({ offset: record.offset, event: decodeEvent(record.payload) });
    await log.close();
    for (const room of rooms) {
      const claims = events.filter(
        ({ event }) => event.type === 'note.written' && event.ns === 'room-owners' && event.key === room,
      );
      expect(claims.length).toBeLessThanOrEqual(1);
      if (claims.length === 0) continue;
      const messages = events.filter(({ event }) => event.type === 'message.appended' && event.room === room);
      expect(messages).toEqual([]);
    }
  });

  it('wakes a long-poll parked on node B when the write lands through node A', async () => {
    const room = 'wake-race';
    expect((await post(a, room, 'the message before the wait')).status).toBe(200);
    await agreedExport(a, b, room);
    const started = Date.now();
    const parked = fetch(b.url(`/r/${room}?format=json&since=1&wait=20`));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await post(a, room, 'the message that wakes node B')).status).toBe(200);
    const woke = (await (await parked).json()) as { messages: Acked[] };
    expect(woke.messages.map((m) => m.text)).toEqual(['the message that wakes node B']);
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});

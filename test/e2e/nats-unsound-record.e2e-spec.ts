import { jetstream } from '@nats-io/jetstream';
import { headers } from '@nats-io/nats-core';
import { connect } from '@nats-io/transport-node';
import { encodeEvent } from '../../src/events/event-codec';
import { deleteStream, NATS_URL, uniqueStreamName } from '../support/nats-stream';
import { ServiceProcess } from '../support/service-process';
import { makeTempDir } from '../support/temp-dir';

const UNSOUND = 'two writes decided against the same state';

/**
 * What a clustered stream can hold after a leader change (a write proposed by a dead leader applied
 * after one its successor took against the same state): a record whose stored precondition does not
 * hold where it stands. Made here directly: the precondition header names the room's state as empty
 * while the server is asked to check another, empty subject instead.
 */
async function storeUnsoundMessage(stream: string, room: string, seq: number): Promise<void> {
  const nc = await connect({ servers: NATS_URL });
  try {
    const h = headers();
    h.set('Nats-Expected-Last-Subject-Sequence', '0');
    h.set('Nats-Expected-Last-Subject-Sequence-Subject', `chat.${stream}.v2.r:never-written`);
    const record = JSON.stringify({
      seq,
      ts: '2026-11-27T12:00:00.000000Z',
      from: 'ghost',
      text: 'decided on an old state',
    });
    const event = { type: 'message.appended' as const, room, seq, at: 1_795_000_000_000_000, record };
    await jetstream(nc).publish(`chat.${stream}.v2.r:${room}`, encodeEvent(event), { headers: h });
  } finally {
    await nc.close();
  }
}

describe('a stored record whose precondition did not hold where the stream put it', () => {
  const stream = uniqueStreamName('unsound');
  const dirs: Array<{ path: string; remove(): void }> = [];
  const nodes: ServiceProcess[] = [];
  const start = async (): Promise<ServiceProcess> => {
    const dir = makeTempDir('nats-unsound');
    dirs.push(dir);
    return ServiceProcess.start({
      CHAT_ROOT: dir.path,
      CHAT_LOG_BACKEND: 'nats',
      CHAT_NATS_URL: NATS_URL,
      CHAT_NATS_STREAM: stream,
      // No shared snapshot: the second node must replay the stream from its first record. A node that
      // restores one does not know the room's record before the unsound one (docs/scaling.md, known
      // gap), and the first node takes one at its first checkpoint when the test runs long under load.
      CHAT_SNAPSHOT_SECONDS: '0',
    });
  };

  afterAll(async () => {
    await Promise.all(nodes.map((node) => node.stop()));
    await deleteStream(stream);
    for (const dir of dirs) dir.remove();
  });

  it('is never folded: a running node stops there and refuses writes, a new node refuses to start', async () => {
    const node = await start();
    nodes.push(node);
    for (let i = 1; i <= 2; i++) {
      const posted = await fetch(node.url('/r/twice?format=json'), {
        method: 'POST',
        body: JSON.stringify({ from: 'real', text: `message ${i}` }),
      });
      expect(posted.status).toBe(200);
    }
    await storeUnsoundMessage(stream, 'twice', 2);

    const deadline = Date.now() + 20_000;
    let health = '';
    while (!health.includes(UNSOUND) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      health = await (await fetch(node.url('/healthz'))).text();
    }
    expect(health).toContain(UNSOUND);
    const refused = await fetch(node.url('/r/twice?format=json'), {
      method: 'POST',
      body: JSON.stringify({ from: 'real', text: 'after it' }),
    });
    expect(refused.status).toBe(503);
    // The room shows the two real messages, not the third with a duplicate seq.
    const exported = (await (await fetch(node.url('/r/twice/export'))).text()).trimEnd().split('\n');
    expect(exported.map((line) => (JSON.parse(line) as { text: string }).text)).toEqual([
      'message 1',
      'message 2',
    ]);

    const error = await start().catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/process exited with 1/);
    expect((error as Error).message).toContain(UNSOUND);
  }, 120_000);
});

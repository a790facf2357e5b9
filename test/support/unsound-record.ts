import { jetstream } from '@nats-io/jetstream';
import { headers } from '@nats-io/nats-core';
import { connect } from '@nats-io/transport-node';
import { encodeEvent } from '../../src/events/event-codec';
import { NATS_URL } from './nats-stream';
import { ServiceProcess } from './service-process';
import { until } from './until';

/** What /healthz and a refused start say about a record whose stored precondition did not hold. */
export const UNSOUND = 'two writes decided against the same state';

/**
 * What a clustered stream can hold after a leader change (a write proposed by a dead leader applied
 * after one its successor took against the same state): a record whose stored precondition does not
 * hold where it stands. Made here directly: the precondition header names the room's state as empty
 * while the server is asked to check another, empty subject instead.
 */
export async function storeUnsoundMessage(stream: string, room: string, seq: number): Promise<void> {
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

/** Posts `texts` to `room` through `node`, each answered 200. */
export async function postAll(node: ServiceProcess, room: string, texts: readonly string[]): Promise<void> {
  for (const text of texts) {
    const posted = await fetch(node.url(`/r/${room}?format=json`), {
      method: 'POST',
      body: JSON.stringify({ from: 'real', text }),
    });
    expect(posted.status).toBe(200);
  }
}

/**
 * Then `node` declared the fork: /healthz names it, a write to `room` is refused (503), and the room
 * shows exactly `texts` (its real messages), not the unsound one with a duplicate seq.
 */
export async function expectForkDeclared(
  node: ServiceProcess,
  room: string,
  texts: readonly string[],
): Promise<void> {
  await until(
    'the fork on /healthz',
    async () => ((await (await fetch(node.url('/healthz'))).text()).includes(UNSOUND) ? true : undefined),
    20_000,
  );
  const refused = await fetch(node.url(`/r/${room}?format=json`), {
    method: 'POST',
    body: JSON.stringify({ from: 'real', text: 'after it' }),
  });
  expect(refused.status).toBe(503);
  const exported = (await (await fetch(node.url(`/r/${room}/export`))).text()).trimEnd().split('\n');
  expect(exported.map((line) => (JSON.parse(line) as { text: string }).text)).toEqual(texts);
}

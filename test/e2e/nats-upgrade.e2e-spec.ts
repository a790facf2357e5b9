import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { ChatEvent } from '../../src/events/chat-event';
import { encodeEvent } from '../../src/events/event-codec';
import { NatsInfoStub } from '../support/nats-info-stub';
import { deleteStream, NATS_URL, uniqueStreamName } from '../support/nats-stream';
import { ServiceProcess } from '../support/service-process';
import { makeTempDir } from '../support/temp-dir';

const AT = 1_790_000_000_000_000;

/** What a version-1 node wrote: one subject, the stream-wide layout, no atomic batches. */
function legacyEvents(): ChatEvent[] {
  const line = (seq: number, from: string, text: string) =>
    JSON.stringify({ seq, ts: '2026-09-21T13:46:40.000000Z', from, text });
  return [
    { type: 'room.created', room: 'lobby', generation: 1, at: AT },
    { type: 'room.created', room: 'events', generation: 1, at: AT },
    { type: 'message.appended', room: 'events', seq: 1, at: AT, record: line(1, 'server', 'created lobby') },
    {
      type: 'message.appended',
      room: 'lobby',
      seq: 1,
      at: AT,
      record: line(1, 'old', 'written by version 1'),
    },
    { type: 'note.written', ns: 'topic', key: 'lobby', value: 'from version 1', at: AT },
  ];
}

describe('a stream written by the version-1 layout, and the servers a node refuses', () => {
  const stream = uniqueStreamName('upgrade');
  const dirs: Array<{ path: string; remove(): void }> = [];
  const nodes: ServiceProcess[] = [];
  const root = () => {
    const dir = makeTempDir('nats-upgrade');
    dirs.push(dir);
    return dir.path;
  };
  const env = (extra: Record<string, string> = {}) => ({
    CHAT_ROOT: root(),
    CHAT_LOG_BACKEND: 'nats',
    CHAT_NATS_URL: NATS_URL,
    CHAT_NATS_STREAM: stream,
    ...extra,
  });

  afterAll(async () => {
    await Promise.all(nodes.map((node) => node.stop()));
    await deleteStream(stream);
    for (const dir of dirs) dir.remove();
  });

  it('upgrades the stream in place: old records replay, new writes continue them, old nodes can no longer write', async () => {
    const nc = await connect({ servers: NATS_URL });
    try {
      const jsm = await jetstreamManager(nc);
      await jsm.streams.add({
        name: stream,
        subjects: [`chat.${stream}.>`],
        storage: 'file',
        discard: 'new',
        deny_delete: true,
        duplicate_window: 120_000_000_000,
      });
      const js = jetstream(nc);
      for (const event of legacyEvents()) await js.publish(`chat.${stream}.log`, encodeEvent(event));

      const node = await ServiceProcess.start(env());
      nodes.push(node);
      const info = await jsm.streams.info(stream);
      expect([info.config.subjects, info.config.allow_atomic]).toEqual([[`chat.${stream}.v2.*`], true]);
      const lobby = await (await fetch(node.url('/r/lobby?format=json'))).json();
      expect((lobby as { messages: Array<{ text: string }> }).messages.map((m) => m.text)).toEqual([
        'written by version 1',
      ]);
      const posted = await fetch(node.url('/r/lobby?format=json'), {
        method: 'POST',
        body: JSON.stringify({ from: 'new', text: 'written by version 2' }),
      });
      expect(posted.status).toBe(200);
      expect(((await posted.json()) as { posted: { seq: number } }).posted.seq).toBe(2);
      const cas = await fetch(node.url('/kv/topic/lobby'), {
        method: 'POST',
        body: JSON.stringify({ value: 'from version 2', if: 'from version 1' }),
      });
      expect(cas.status).toBe(200);
      // A version-1 node publishing now finds no stream for its subject.
      await expect(
        js.publish(`chat.${stream}.log`, encodeEvent(legacyEvents()[3]), { timeout: 2000 }),
      ).rejects.toThrow(/jetstream is not enabled|no responders/i);
      // Every record is where the layouts say: five on the old subject, the new ones in their scopes.
      const subjects: string[] = [];
      for (let seq = 1; seq <= (await jsm.streams.info(stream)).state.last_seq; seq++) {
        subjects.push((await jsm.streams.getMessage(stream, { seq }))!.subject);
      }
      expect(subjects).toEqual([
        ...Array.from({ length: 5 }, () => `chat.${stream}.log`),
        `chat.${stream}.v2.r:lobby`,
        `chat.${stream}.v2.n:topic:lobby`,
      ]);
    } finally {
      await nc.close();
    }
  });

  it('refuses to start when a server in CHAT_NATS_URL runs a nats-server older than 2.12, naming it and why', async () => {
    const old = await NatsInfoStub.start({ name: 'old-one', version: '2.9.10' });
    try {
      const error = await ServiceProcess.start(
        env({
          CHAT_NATS_URL: `${NATS_URL},${old.url}`,
          CHAT_NATS_REPLICAS: '3',
          CHAT_NATS_TIMEOUT_MS: '2000',
        }),
      ).catch((e: Error) => e);
      expect(error).toBeInstanceOf(Error);
      const message = (error as Error).message;
      expect(message).toMatch(/process exited with 1/);
      expect(message).toContain(`old-one at ${old.url} runs nats-server 2.9.10`);
      expect(message).toContain('a replica that needs catch-up can be elected stream leader');
    } finally {
      await old.stop();
    }
  }, 90_000);
});

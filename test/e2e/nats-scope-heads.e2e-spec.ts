import { Objm } from '@nats-io/obj';
import { connect } from '@nats-io/transport-node';
import { CheckpointStore } from '../../src/projections/checkpoint-store';
import { ScopeHeadsState } from '../../src/projections/scope-heads-fold';
import {
  deleteStream,
  NATS_URL,
  snapshottingNodeEnv,
  storedMessages,
  streamLastSeq,
  uniqueStreamName,
} from '../support/nats-stream';
import { ServiceProcess } from '../support/service-process';
import { makeTempDir } from '../support/temp-dir';
import { until } from '../support/until';
import { expectForkDeclared, postAll, storeUnsoundMessage, UNSOUND } from '../support/unsound-record';

/** Every record of `stream` as [sequence, scope id] (the subject's last token), read raw from NATS. */
async function streamScopes(stream: string): Promise<Array<[number, string]>> {
  const prefix = `chat.${stream}.v2.`;
  return (await storedMessages(stream)).map(({ seq, subject }) => [seq, subject.slice(prefix.length)]);
}

/** The offsets of the shared snapshots of `stream`. */
async function snapshotOffsets(stream: string): Promise<number[]> {
  const nc = await connect({ servers: NATS_URL });
  try {
    const store = await new Objm(nc).open(`${stream}-snapshots`);
    return (await store.list()).filter((info) => !info.deleted).map((info) => Number(info.name.slice(0, 20)));
  } finally {
    await nc.close();
  }
}

describe('scope heads in checkpoints and snapshots: a restarted or restored node checks what a full replay checks', () => {
  const streams: string[] = [];
  const dirs = Array.from({ length: 5 }, () => makeTempDir('nats-heads'));
  let used = 0;
  const dir = () => dirs[used++].path;
  const nodes: ServiceProcess[] = [];
  const newStream = () => {
    const name = uniqueStreamName('heads');
    streams.push(name);
    return name;
  };
  const start = async (env: Record<string, string>) => {
    const node = await ServiceProcess.start(env);
    nodes.push(node);
    return node;
  };
  const stop = async (node: ServiceProcess) => {
    nodes.splice(nodes.indexOf(node), 1);
    await node.stop();
  };
  const plainEnv = (root: string, stream: string, extra: Record<string, string> = {}) => ({
    CHAT_ROOT: root,
    CHAT_LOG_BACKEND: 'nats',
    CHAT_NATS_URL: NATS_URL,
    CHAT_NATS_STREAM: stream,
    CHAT_SNAPSHOT_SECONDS: '0', // its own checkpoints only: what these tests restart from
    ...extra,
  });

  /** A node writes a room (and another after it), then stops: its final checkpoint is at the head. */
  const quietRoomThenStop = async () => {
    const stream = newStream();
    const root = dir();
    const first = await start(plainEnv(root, stream));
    await postAll(first, 'quiet', ['message 1', 'message 2']);
    await postAll(first, 'busy', ['other 1']);
    const head = await streamLastSeq(stream);
    await stop(first);
    expect(new CheckpointStore(root).offsets()[0]).toBe(head);
    return { stream, root, head };
  };

  afterAll(async () => {
    await Promise.all(nodes.map((node) => node.stop()));
    for (const stream of streams) await deleteStream(stream);
    for (const made of dirs) made.remove();
  });

  it('every checkpoint holds exactly the scope heads of the records below its offset, taken under concurrent writes', async () => {
    const stream = newStream();
    const root = dir();
    const node = await start(
      plainEnv(root, stream, { CHAT_CHECKPOINT_EVENTS: '7', CHAT_CHECKPOINTS_KEEP: '100' }),
    );
    const rooms = Array.from({ length: 24 }, (_, i) => `heads-${i}`);
    await Promise.all(
      Array.from({ length: 8 }, (_, writer) =>
        postAll(
          node,
          rooms[writer],
          Array.from({ length: 30 }, (_, i) => `writer ${writer} message ${i}`),
        ).then(() => Promise.all(rooms.slice(8).map((room) => postAll(node, room, [`from ${writer}`])))),
      ),
    );
    await stop(node); // the final checkpoint too
    const records = await streamScopes(stream);
    const store = new CheckpointStore(root);
    const offsets = store.offsets();
    expect(offsets.length).toBeGreaterThan(5); // fewer under load: one runs at a time, a request meanwhile joins it
    for (const offset of offsets) {
      const checkpoint = (await store.read(offset))!;
      const state = checkpoint.projections.scopeHeads as ScopeHeadsState;
      const expected = new Map<string, number>();
      for (const [seq, scope] of records) if (seq - 1 < offset) expected.set(scope, seq - 1);
      expect(state.offset).toBe(offset);
      expect(new Map(state.heads)).toEqual(expected);
    }
  }, 300_000);

  it('a node restarted from its own checkpoint declares a fork at an unsound record of a scope last written before it', async () => {
    const { stream, root, head } = await quietRoomThenStop();

    const again = await start(plainEnv(root, stream));
    expect(again.startupOutput).toContain(`"replay":{"checkpoint":${head},"replayed":0}`);
    await storeUnsoundMessage(stream, 'quiet', 2);
    await expectForkDeclared(again, 'quiet', ['message 1', 'message 2']);
  }, 300_000);

  it('a node restarted from its own checkpoint refuses to start when the unsound record came while it was down', async () => {
    const { stream, root } = await quietRoomThenStop();
    await storeUnsoundMessage(stream, 'quiet', 2);

    const error = await ServiceProcess.start(plainEnv(root, stream)).catch((e: Error) => e);
    if (error instanceof ServiceProcess) nodes.push(error); // started after all: stopped by afterAll
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain(UNSOUND);
  }, 300_000);

  it('a node restored from a shared snapshot declares a fork at an unsound record of a scope last written before it', async () => {
    const stream = newStream();
    const a = await start(snapshottingNodeEnv(dir(), stream));
    await postAll(a, 'quiet', ['message 1', 'message 2']);
    const quietHead = await streamLastSeq(stream);
    await postAll(
      a,
      'busy',
      Array.from({ length: 25 }, (_, i) => `other ${i}`),
    );
    await until('a snapshot past the quiet room', async () =>
      (await snapshotOffsets(stream)).some((offset) => offset >= quietHead) ? true : undefined,
    );

    const b = await start(snapshottingNodeEnv(dir(), stream));
    const restored = Number(/restored snapshot at offset (\d+)/.exec(b.startupOutput)![1]);
    expect(restored).toBeGreaterThanOrEqual(quietHead);
    await storeUnsoundMessage(stream, 'quiet', 2);
    await expectForkDeclared(b, 'quiet', ['message 1', 'message 2']);
    await expectForkDeclared(a, 'quiet', ['message 1', 'message 2']);
  }, 300_000);
});

import { snapshottingNodeEnv } from '../support/nats-stream';
import { builtNatsTool } from '../support/built-tool';
import { ServiceProcess } from '../support/service-process';
import { natsNodesFixture } from '../support/nats-nodes-fixture';
import { until } from '../support/until';

/**
 * docs/scaling.md, "Restore after losing the stream": the stream is lost, its snapshots and archive
 * survive. `npm run nats-restart-stream` creates it again, empty, right after the newest snapshot; a
 * node on an empty data directory restores that snapshot and takes writes; the tools read the
 * archive, name the records lost between it and the snapshot, and read on from the snapshot.
 */
describe('restoring after losing the stream (real nats-server, built tools)', () => {
  const fixture = natsNodesFixture('restart', ['before', 'after']);
  const { stream, dirs, nodes } = fixture;

  const env = { CHAT_NATS_STREAM: stream };
  const start = async (root: string) => {
    const node = await ServiceProcess.start({
      ...snapshottingNodeEnv(root, stream),
      CHAT_NATS_ARCHIVE: 'object',
      CHAT_NATS_ARCHIVE_CHUNK_BYTES: '1024',
    });
    nodes.push(node);
    return node;
  };
  const post = async (node: ServiceProcess, text: string) => {
    const response = await fetch(node.url('/r/kept?format=json'), {
      method: 'POST',
      body: JSON.stringify({ from: 'restorer', text }),
    });
    expect(response.status).toBe(200);
  };

  it('continues after the newest snapshot; the history reads up to the archive, then from the snapshot', async () => {
    const before = await start(dirs[0].path);
    const firstSeq = async () => (await fixture.jsm.streams.info(stream)).state.first_seq;
    for (let i = 0; i < 300 && (await firstSeq()) < 40; i++) await post(before, `before the loss ${i}`);
    await until('a purge past offset 40', async () => ((await firstSeq()) >= 40 ? true : undefined), 60_000);
    await before.stop();
    const archivedUpTo = (await firstSeq()) - 1;

    // The stream is lost; its object stores are not.
    await fixture.jsm.streams.delete(stream);
    expect((await builtNatsTool('nats-restart-stream', [], env)).code).toBe(0);
    const refused = await builtNatsTool('nats-restart-stream', [], env);
    expect([refused.code, refused.out]).toEqual([2, expect.stringContaining(`stream ${stream} exists`)]);
    const { first_seq: first, last_seq: last } = (await fixture.jsm.streams.info(stream)).state;
    expect(last).toBe(first - 1);
    const snapshot = first - 1;
    expect(snapshot).toBeGreaterThanOrEqual(archivedUpTo);

    const after = await start(dirs[1].path);
    expect(after.startupOutput).toContain(`restored snapshot at offset ${snapshot}`);
    const room = (await (await fetch(after.url('/r/kept?format=json'))).json()) as { messages: unknown[] };
    expect(room.messages.length).toBeGreaterThan(0);
    await post(after, 'after the restore');

    // Records between the archive's end and the snapshot were only in the lost stream: named.
    expect(snapshot).toBeGreaterThan(archivedUpTo);
    const whole = await builtNatsTool('events', ['--nats', stream], env);
    expect(whole.code).toBe(1);
    expect(whole.out).toContain(
      `offsets ${archivedUpTo}..${snapshot - 1} are in neither the archive nor the stream`,
    );
    const since = await builtNatsTool('events', ['--nats', stream, '--from', String(snapshot)], env);
    expect(since.code).toBe(0);
    expect(since.out).toContain('after the restore');
  }, 180_000);
});

import { snapshottingNodeEnv } from '../support/nats-stream';
import { ServiceProcess } from '../support/service-process';
import { natsNodesFixture } from '../support/nats-nodes-fixture';
import { until } from '../support/until';

/** Quiet rooms: written once, then left while the stream is purged past their last record. */
const QUIET = ['quiet-a', 'quiet-b'];
const BUSY = 'busy';
const ROOMS = [...QUIET, BUSY];

async function post(node: ServiceProcess, room: string, text: string): Promise<void> {
  const response = await fetch(node.url(`/r/${room}?format=json`), {
    method: 'POST',
    body: JSON.stringify({ from: 'quiet-tester', text }),
  });
  expect(`${response.status} ${response.status === 200 ? '' : await response.text()}`).toBe('200 ');
}

async function exportsOf(node: ServiceProcess): Promise<string[]> {
  return Promise.all(ROOMS.map(async (room) => (await fetch(node.url(`/r/${room}/export`))).text()));
}

/**
 * Issue 27, the fork purging caused (docs/scaling.md, "Writing to a scope whose records were
 * purged"): a purge by sequence removes the last record of a quiet room. A node restored from a
 * snapshot since does not hold that room's last record and writes against "no record"; the node that
 * held it must not call that a fork. And the node that held it writes against a record the stream no
 * longer has; NATS refuses that, which must be a retry, not a fork. Both nodes end with identical
 * exports of every room.
 */
describe('writing to a room whose last record was purged (real nats-server)', () => {
  const fixture = natsNodesFixture('purged-head', ['a', 'b']);
  const { stream, dirs, nodes } = fixture;

  const env = (root: string) => snapshottingNodeEnv(root, stream);
  const start = async (root: string) => {
    const node = await ServiceProcess.start(env(root));
    nodes.push(node);
    return node;
  };
  const firstSeq = async () => (await fixture.jsm.streams.info(stream)).state.first_seq;
  const lastSeq = async () => (await fixture.jsm.streams.info(stream)).state.last_seq;

  it('neither node declares a fork, and both export identical rooms', async () => {
    const a = await start(dirs[0].path);
    for (const room of QUIET) await post(a, room, `${room} before the purge`);
    const quietHead = await lastSeq();
    // Only the busy room is written until snapshots were taken and the stream purged past the
    // quiet rooms' last records.
    for (let i = 0; i < 200 && (await firstSeq()) <= quietHead; i++) await post(a, BUSY, `busy ${i}`);
    await until(
      'a purge past the quiet rooms',
      async () => ((await firstSeq()) > quietHead ? true : undefined),
      60_000,
    );
    for (const room of QUIET) {
      const stored = await fixture.jsm.streams
        .getMessage(stream, { last_by_subj: `chat.${stream}.v2.r:${room}` })
        .catch(() => null);
      expect(stored).toBeNull();
    }

    // b restores a snapshot taken after the quiet rooms' last records: it holds the rooms, not
    // their stream records.
    const b = await start(dirs[1].path);
    expect(b.startupOutput).toMatch(/restored snapshot at offset \d+/);
    await post(b, QUIET[0], `${QUIET[0]} from the restored node`);
    // a held quiet-b's last record since it wrote it.
    await post(a, QUIET[1], `${QUIET[1]} from the node that held its last record`);
    // And each continues the room the other wrote.
    await post(a, QUIET[0], `${QUIET[0]} from a after b`);
    await post(b, QUIET[1], `${QUIET[1]} from b after a`);

    const head = await lastSeq();
    await until(
      'both nodes applied every record',
      async () => {
        const [ha, hb] = await Promise.all([a, b].map((n) => fetch(n.url('/healthz'))));
        if (ha.status !== 200 || hb.status !== 200) {
          throw new Error(`a node is unhealthy: ${await ha.text()} / ${await hb.text()}`);
        }
        const [ea, eb] = await Promise.all([exportsOf(a), exportsOf(b)]);
        const applied = ea.every((text) => text.length > 0) && JSON.stringify(ea) === JSON.stringify(eb);
        return applied && (await lastSeq()) === head ? true : undefined;
      },
      60_000,
    );
    const [ea, eb] = await Promise.all([exportsOf(a), exportsOf(b)]);
    expect(eb).toEqual(ea);
    // Each quiet room continues its history (seq 2, 3 after the first message), on both nodes.
    for (const [i, room] of QUIET.entries()) {
      const text = ea[i];
      expect(text).toContain(`${room} before the purge`);
      expect(text).toContain(i === 0 ? `${room} from the restored node` : `${room} from the node that held`);
    }
    const seqs = await Promise.all(
      QUIET.map(
        async (room) =>
          ((await (await fetch(b.url(`/r/${room}?format=json`))).json()) as { last_seq: number }).last_seq,
      ),
    );
    expect(seqs).toEqual([3, 3]);
  }, 240_000);
});

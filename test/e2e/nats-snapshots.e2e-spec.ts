import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import { NatsConnection } from '@nats-io/nats-core';
import { Objm } from '@nats-io/obj';
import { connect } from '@nats-io/transport-node';
import { deleteStream, NATS_URL, snapshottingNodeEnv, uniqueStreamName } from '../support/nats-stream';
import { ServiceProcess } from '../support/service-process';
import { makeTempDir } from '../support/temp-dir';
import { until } from '../support/until';

const ROOMS = ['snap-a', 'snap-b', 'snap-c'];

async function writeMessages(node: ServiceProcess, count: number, tag: string): Promise<void> {
  for (let i = 0; i < count; i++) {
    const room = ROOMS[i % ROOMS.length];
    const response = await fetch(node.url(`/r/${room}?format=json`), {
      method: 'POST',
      body: JSON.stringify({ from: 'snapper', text: `${tag} message ${i}` }),
    });
    expect(response.status).toBe(200);
  }
}

async function exportsOf(node: ServiceProcess): Promise<string[]> {
  return Promise.all(ROOMS.map(async (room) => (await fetch(node.url(`/r/${room}/export`))).text()));
}

/** Waits until `b` exports what `a` does (b applies a's writes as its tail delivers them). */
async function expectSameExports(a: ServiceProcess, b: ServiceProcess): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const [fromA, fromB] = await Promise.all([exportsOf(a), exportsOf(b)]);
    if (JSON.stringify(fromA) === JSON.stringify(fromB) || Date.now() > deadline) {
      expect(fromB).toEqual(fromA);
      expect(fromA.every((text) => text.length > 0)).toBe(true);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('shared snapshots and a bounded stream (real nats-server)', () => {
  const stream = uniqueStreamName('snapshots');
  const bucket = `${stream}-snapshots`;
  const dirs = ['a', 'b', 'c', 'd', 'e'].map((n) => makeTempDir(`nats-snap-${n}`));
  const nodes: ServiceProcess[] = [];
  let nc: NatsConnection;

  const env = (root: string) => snapshottingNodeEnv(root, stream);
  const start = async (root: string) => {
    const node = await ServiceProcess.start(env(root));
    nodes.push(node);
    return node;
  };
  const snapshotNames = async () => {
    const store = await new Objm(nc).open(bucket);
    return (await store.list())
      .filter((info) => !info.deleted)
      .map((info) => info.name)
      .sort()
      .reverse();
  };
  const firstSeq = async () => (await (await jetstreamManager(nc)).streams.info(stream)).state.first_seq;

  beforeAll(async () => {
    nc = await connect({ servers: [NATS_URL] });
  });

  afterAll(async () => {
    await Promise.all(nodes.map((node) => node.stop()));
    await nc?.close();
    await deleteStream(stream);
    for (const dir of dirs) dir.remove();
  });

  it('publishes snapshots, purges the stream below the oldest kept, and a node from an empty directory joins', async () => {
    const a = await start(dirs[0].path);
    await writeMessages(a, 90, 'first');
    // Two kept snapshots and a stream purged below the older one.
    await until('two snapshots and a purge', async () =>
      (await snapshotNames()).length === 2 && (await firstSeq()) > 1 ? true : undefined,
    );
    const b = await start(dirs[1].path);
    expect(b.startupOutput).toMatch(/restored snapshot at offset \d+/);
    await expectSameExports(a, b);
    // The joined node writes too, and the first one sees it.
    await writeMessages(b, 6, 'from b');
    await expectSameExports(b, a);
  }, 180_000);

  it('answers /readyz 503 (and /healthz 200) on its port while it restores, then ready on the same port', async () => {
    const [a] = nodes;
    const answers: Array<Promise<[number, number]>> = [];
    const node = await ServiceProcess.start(env(dirs[4].path), {
      onOutput: (text) => {
        const port = /answers 503 on port (\d+)/.exec(text)?.[1];
        if (port === undefined || answers.length > 0) return;
        const at = (path: string) => fetch(`http://127.0.0.1:${port}${path}`).then((r) => r.status);
        answers.push(Promise.all([at('/readyz'), at('/healthz')]));
      },
    });
    nodes.push(node);
    expect(answers).toHaveLength(1);
    expect(await answers[0]).toEqual([503, 200]);
    expect(node.startupOutput).toMatch(/restored snapshot at offset \d+/);
    const port = /answers 503 on port (\d+)/.exec(node.startupOutput)![1];
    expect(new URL(node.baseUrl).port).toBe(port);
    await expectSameExports(a, node);
    expect((await fetch(node.url('/readyz'))).status).toBe(200);
  }, 180_000);

  it('skips a damaged newest snapshot and restores the one before it', async () => {
    const [a] = nodes;
    const store = await new Objm(nc).open(bucket);
    const [newest, older] = await snapshotNames();
    const bytes = (await store.getBlob(newest))!;
    bytes[Math.floor(bytes.length / 2)] ^= 0x20; // one flipped bit, in a store whose own digest is fresh
    await store.putBlob({ name: newest }, bytes);
    const c = await start(dirs[2].path);
    expect(c.startupOutput).toContain(`snapshot ${newest} in object store ${bucket} is damaged`);
    expect(c.startupOutput).toContain(`restored snapshot at offset ${Number(older.slice(0, 20))}`);
    await expectSameExports(a, c);
  }, 180_000);

  it('a node stopped before its restored files were all on disk drops its checkpoints and restores again', async () => {
    const [a] = nodes;
    const c = nodes.pop()!;
    await c.stop();
    // What a crash between the restore and the end of its background fsyncs leaves behind.
    writeFileSync(join(dirs[2].path, 'snapshot-restore.pending'), 'restoring the snapshot at offset 1\n');
    const again = await start(dirs[2].path);
    expect(again.startupOutput).toContain('its checkpoints are dropped and a snapshot is restored again');
    expect(again.startupOutput).toMatch(/restored snapshot at offset \d+/);
    await expectSameExports(a, again);
    await until('the restored files on disk', async () =>
      existsSync(join(dirs[2].path, 'snapshot-restore.pending')) ? undefined : true,
    );
  }, 180_000);

  it('a node whose checkpoint the stream was purged past restores a snapshot instead of failing', async () => {
    const [a, b] = nodes;
    await b.stop();
    nodes.splice(1, 1);
    const before = await firstSeq();
    await writeMessages(a, 90, 'while b is away');
    await until('the stream purged further', async () =>
      (await firstSeq()) > before + 40 ? true : undefined,
    );
    const back = await start(dirs[1].path);
    expect(back.startupOutput).toMatch(/restored snapshot at offset \d+/);
    await expectSameExports(a, back);
  }, 180_000);

  it('a node that cannot catch up refuses to start, naming what is missing', async () => {
    // No node left to publish a new snapshot, then none kept: the purged records are nowhere.
    await Promise.all(nodes.splice(0).map((node) => node.stop()));
    const store = await new Objm(nc).open(bucket);
    for (const name of await snapshotNames()) await store.delete(name);
    const started = ServiceProcess.start(env(dirs[3].path));
    started.then(
      (node) => nodes.push(node),
      () => undefined,
    ); // stopped in afterAll should it start
    await expect(started).rejects.toThrow(
      /cannot catch up: the stream starts at offset \d+, this node's newest checkpoint is none/,
    );
  }, 120_000);
});

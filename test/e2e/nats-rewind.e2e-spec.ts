import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { cpSync, rmSync } from 'node:fs';
import { freeLoopbackPort, NatsServerProcess } from '../support/nats-server-process';
import { streamLastSeq } from '../support/nats-stream';
import { ServiceProcess } from '../support/service-process';
import { makeTempDir } from '../support/temp-dir';

const STREAM = 'rewind';

async function post(node: ServiceProcess, text: string): Promise<Response> {
  return fetch(node.url('/r/rewound?format=json'), {
    method: 'POST',
    body: JSON.stringify({ from: 'rewind', text }),
  });
}

/** Posts until one is acknowledged (the node reconnects and verifies the stream first). */
async function postEventually(node: ServiceProcess, text: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const response = await post(node, text);
    if (response.status === 200) return;
    await response.arrayBuffer();
    if (Date.now() > deadline) throw new Error(`no write acknowledged: ${response.status}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const lastSeq = (url: string): Promise<number> => streamLastSeq(STREAM, [url]);

/**
 * Waits until `node` answers writes 503 naming the fork, and returns that body. A stream that went
 * back is a fork only after CHAT_NATS_FORK_CONFIRM_MS (15 s by default), after the reconnect.
 */
async function forkReported(node: ServiceProcess): Promise<string> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const response = await post(node, `after the rewind ${Date.now()}`);
    const body = await response.text();
    if (response.status === 503 && body.includes('does not hold the history this node applied')) return body;
    if (Date.now() > deadline) throw new Error(`no fork reported: ${response.status} ${body}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('a stream rewound under a running node (an older copy of the store restored)', () => {
  const store = makeTempDir('nats-rewind-store');
  const older = makeTempDir('nats-rewind-older');
  const roots: Array<{ path: string; remove(): void }> = [];
  let nats: NatsServerProcess;
  let node: ServiceProcess | undefined;
  let output = '';

  const startNode = async (url: string, metricsPort: number): Promise<ServiceProcess> => {
    const root = makeTempDir('nats-rewind-root');
    roots.push(root);
    const started = await ServiceProcess.start({
      CHAT_ROOT: root.path,
      CHAT_LOG_BACKEND: 'nats',
      CHAT_NATS_URL: url,
      CHAT_NATS_STREAM: STREAM,
      CHAT_NATS_TIMEOUT_MS: '2000',
      CHAT_METRICS_PORT: String(metricsPort),
    });
    output = '';
    started.child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    return started;
  };

  afterEach(async () => {
    await node?.stop();
    node = undefined;
    await nats?.kill9();
  });
  afterAll(() => {
    for (const dir of [store, older, ...roots]) dir.remove();
  });

  /** Writes 3, copies the store aside, writes 3 more: the node applied 6 messages (+ creations). */
  async function runPastACopy(): Promise<{ port: number; metricsPort: number; appliedSeq: number }> {
    const port = await freeLoopbackPort();
    nats = new NatsServerProcess({ name: 'rewind', port, storeDir: store.path });
    await nats.start();
    const metricsPort = await freeLoopbackPort();
    node = await startNode(nats.url, metricsPort);
    for (let i = 1; i <= 3; i++) expect((await post(node, `before the copy ${i}`)).status).toBe(200);
    await nats.kill9();
    rmSync(older.path, { recursive: true, force: true });
    cpSync(store.path, older.path, { recursive: true });
    await nats.start();
    for (let i = 1; i <= 3; i++) await postEventually(node, `after the copy ${i}`);
    return { port, metricsPort, appliedSeq: await lastSeq(nats.url) };
  }

  function restoreOlderCopy(): void {
    rmSync(store.path, { recursive: true, force: true });
    cpSync(older.path, store.path, { recursive: true });
  }

  it('given a stream that went back below what the node applied, then the node refuses writes, reports it, and writes nothing', async () => {
    const { metricsPort, appliedSeq } = await runPastACopy();
    await nats.kill9();
    restoreOlderCopy();
    await nats.start();
    const rewoundTo = await lastSeq(nats.url);
    expect(rewoundTo).toBeLessThan(appliedSeq);

    const refusal = await forkReported(node!);
    expect(refusal).toContain(
      `its last sequence is ${rewoundTo}, but this node applied records up to ${appliedSeq}`,
    );
    for (const probe of ['/healthz', '/readyz']) {
      const reply = await fetch(node!.url(probe));
      expect(reply.status).toBe(503);
      expect(await reply.text()).toContain('does not hold the history this node applied');
    }
    const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    expect(metrics).toMatch(/^chat_log_forked 1$/m);
    expect(output).toMatch(/"level":"error".*does not hold the history this node applied/);
    // Never written on top: the rewound stream holds exactly what the older copy held.
    expect(await lastSeq(nats.url)).toBe(rewoundTo);
    // Reads still serve what the node applied.
    const read = await (await fetch(node!.url('/r/rewound?format=json'))).json();
    expect((read as { messages: unknown[] }).messages).toHaveLength(6);
  }, 180_000);

  it('given a stream rewound and refilled past the node by another writer, then the record at its head differs and it refuses writes', async () => {
    const { port, appliedSeq } = await runPastACopy();
    await nats.kill9();
    restoreOlderCopy();
    // The older copy comes back first on another port, where something else writes to it.
    const elsewhere = new NatsServerProcess({
      name: 'rewind',
      port: await freeLoopbackPort(),
      storeDir: store.path,
    });
    await elsewhere.start();
    const nc = await connect({ servers: elsewhere.url });
    try {
      const js = jetstream(nc);
      while ((await (await jetstreamManager(nc)).streams.info(STREAM)).state.last_seq < appliedSeq + 2) {
        await js.publish(`chat.${STREAM}.v2.n:other:history`, Buffer.from('{"type":"note.written"}'));
      }
    } finally {
      await nc.close();
      await elsewhere.kill9();
    }
    nats = new NatsServerProcess({ name: 'rewind', port, storeDir: store.path });
    await nats.start();
    const refusal = await forkReported(node!);
    expect(refusal).toContain(`its record ${appliedSeq} is not the one this node applied`);
    expect((await fetch(node!.url('/healthz'))).status).toBe(503);
    expect(await lastSeq(nats.url)).toBe(appliedSeq + 2);
  }, 180_000);
});

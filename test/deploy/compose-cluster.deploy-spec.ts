import { join } from 'node:path';
import { freePort } from '../support/free-port';
import {
  podman,
  podmanOk,
  REPO_ROOT,
  Run,
  serviceImage,
  uniqueName,
  waitForStatus,
  withPodmanEnv,
} from './support/podman';

const COMPOSE_FILE = join(REPO_ROOT, 'deploy', 'compose', 'compose.yaml');

async function baseImages(): Promise<Record<string, string>> {
  const built = await withPodmanEnv(
    'bash',
    [join(REPO_ROOT, 'deploy', 'local-base', 'build-base-images.sh')],
    30 * 60_000,
  );
  if (built.code !== 0) throw new Error(`build-base-images.sh exited ${built.code}:\n${built.stderr}`);
  return Object.fromEntries(
    built.stdout
      .trim()
      .split('\n')
      .filter((line) => /^[A-Z_]+_IMAGE=/.test(line))
      .map((line) => line.split('=') as [string, string]),
  );
}

/**
 * deploy/compose/compose.yaml brought up for real with podman-compose: three NATS servers with the
 * stream replicated three times, three service nodes and Prometheus. A write through one node is read
 * through the others, Prometheus scrapes all three, and `down -v` leaves nothing behind.
 */
describe('compose cluster (deploy/compose/compose.yaml)', () => {
  const project = uniqueName('agent-chat-test');
  const env: Record<string, string> = {};
  const compose = (args: readonly string[], timeoutMs = 300_000): Promise<Run> =>
    withPodmanEnv(
      'env',
      [
        ...Object.entries(env).map(([k, v]) => `${k}=${v}`),
        'podman-compose',
        '-p',
        project,
        '-f',
        COMPOSE_FILE,
        ...args,
      ],
      timeoutMs,
    );
  const node = (i: number): string => `http://127.0.0.1:${env[`CHAT_NODE${i}_PORT`]}`;

  beforeAll(async () => {
    const images = await baseImages();
    env.AGENT_CHAT_IMAGE = await serviceImage();
    env.NATS_IMAGE = images.NATS_IMAGE;
    env.PROMETHEUS_IMAGE = images.PROMETHEUS_IMAGE;
    for (const name of ['CHAT_NODE1_PORT', 'CHAT_NODE2_PORT', 'CHAT_NODE3_PORT', 'PROMETHEUS_PORT']) {
      env[name] = String(await freePort());
    }
    const up = await compose(['up', '-d']);
    if (up.code !== 0) throw new Error(`podman-compose up exited ${up.code}:\n${up.stderr.slice(-6000)}`);
  }, 40 * 60_000);

  /** The project's containers and volumes, by compose's label (what `down` must leave none of). */
  const leftovers = async (): Promise<{ containers: string[]; volumes: string[] }> => {
    const label = `label=io.podman.compose.project=${project}`;
    const lines = (run: Run): string[] => run.stdout.split('\n').filter(Boolean);
    return {
      containers: lines(await podman(['ps', '-a', '-q', '--filter', label])),
      volumes: lines(await podman(['volume', 'ls', '-q', '--filter', label])),
    };
  };

  afterAll(async () => {
    await compose(['down', '-v', '-t', '10']);
    // Whatever `down` left (a failed `up` half way).
    const left = await leftovers();
    for (const id of left.containers) await podman(['rm', '-f', id]);
    for (const name of left.volumes) await podman(['volume', 'rm', '-f', name]);
  }, 300_000);

  it('serves a write made on one node from the others, on an R3 stream, scraped by Prometheus; down removes it all', async () => {
    for (const i of [1, 2, 3]) await waitForStatus(`${node(i)}/readyz`, 200, 240_000);

    const said = await fetch(`${node(1)}/r/compose-room/say/alice/written%20on%20node%201?format=json`);
    expect(said.status).toBe(200);
    for (const i of [2, 3]) {
      // Other nodes apply the record as their stream tails deliver it: poll briefly.
      const until = Date.now() + 30_000;
      let texts: string[] = [];
      while (Date.now() < until) {
        const read = await fetch(`${node(i)}/r/compose-room?since=0&format=json`);
        if (read.status === 200)
          texts = ((await read.json()) as { messages: { text: string }[] }).messages.map((m) => m.text);
        if (texts.length > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(texts).toEqual(['written on node 1']);
    }

    // The stream the nodes created is replicated on all three servers (NATS's monitoring port is on
    // the cluster's network only: asked from inside a node's container).
    const jsz = await podmanOk([
      'exec',
      `${project}_chat-1_1`,
      'node',
      '-e',
      "fetch('http://nats-1:8222/jsz?streams=true&config=true').then((r) => r.text()).then((t) => process.stdout.write(t))",
    ]);
    const stream = (
      JSON.parse(jsz).account_details as {
        stream_detail: {
          name: string;
          config: { num_replicas: number };
          cluster: { replicas?: unknown[] };
        }[];
      }[]
    )
      .flatMap((account) => account.stream_detail)
      .find((s) => s.name === 'agent-chat');
    expect(stream?.config.num_replicas).toBe(3);
    expect(stream?.cluster.replicas).toHaveLength(2);

    // The nodes' kernel holds at most 128 KiB of a reply a client does not read.
    expect(
      await podmanOk(['exec', `${project}_chat-2_1`, 'cat', '/proc/sys/net/ipv4/tcp_notsent_lowat']),
    ).toBe('131072');

    const prometheus = `http://127.0.0.1:${env.PROMETHEUS_PORT}`;
    const until = Date.now() + 90_000;
    let up: string[] = [];
    while (Date.now() < until && up.length < 3) {
      const reply = await fetch(
        `${prometheus}/api/v1/query?query=${encodeURIComponent('up{job="agent-chat"} == 1')}`,
      ).catch(() => null);
      if (reply?.status === 200) {
        const body = (await reply.json()) as { data: { result: { metric: { instance: string } }[] } };
        up = body.data.result.map((r) => r.metric.instance).sort();
      }
      if (up.length < 3) await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    expect(up).toEqual(['chat-1:9464', 'chat-2:9464', 'chat-3:9464']);

    const down = await compose(['down', '-v', '-t', '10']);
    expect(down.code).toBe(0);
    expect(await leftovers()).toEqual({ containers: [], volumes: [] });
  }, 600_000);
});

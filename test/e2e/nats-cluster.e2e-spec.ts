import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { NatsCluster } from '../support/nats-cluster';
import { ServiceProcess } from '../support/service-process';
import { makeTempDir } from '../support/temp-dir';

/**
 * Issue 26's fault test: a 3-server cluster (current nats-server), an R3 stream, two service nodes
 * under write load; each cycle restarts one NATS server (kill -9, start again on its store) and then
 * kills the stream leader with kill -9. After every cycle each node either agrees with the other —
 * every acknowledged write in both exports at the seq it was acknowledged with, identical bytes — or
 * refuses writes saying why. Cycles: AGENT_CHAT_FAULT_CYCLES (2 in `npm test`, 5 in
 * `npm run test:nats-faults`).
 */
const CYCLES = Number(process.env.AGENT_CHAT_FAULT_CYCLES ?? '2');
const STREAM = 'faults-r3';
const ROOMS = ['shared', 'own-0', 'own-1'];
const FORKED = 'does not hold the history this node applied';

interface Acked {
  readonly room: string;
  readonly seq: number;
  readonly text: string;
  readonly node: number;
  /** When the write was sent and when its 200 came back. */
  readonly sentAt: number;
  readonly at: number;
}

interface Load {
  readonly acked: Acked[];
  refused: number;
  paused: boolean;
  stopped: boolean;
  busy: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sequential POSTs to one room until stopped; waits while paused. */
async function writer(node: ServiceProcess, n: number, room: string, load: Load): Promise<void> {
  for (let i = 0; !load.stopped; i++) {
    if (load.paused) {
      await sleep(50);
      continue;
    }
    const text = `node${n} ${room} ${i}`;
    const sentAt = Date.now();
    load.busy++;
    const response = await fetch(node.url(`/r/${room}?format=json`), {
      method: 'POST',
      body: JSON.stringify({ from: 'faults', text }),
      signal: AbortSignal.timeout(30_000),
    }).catch(() => undefined);
    if (response?.status === 200) {
      const { posted } = (await response.json()) as { posted: { seq: number } };
      load.acked.push({ room, seq: posted.seq, text, node: n, sentAt, at: Date.now() });
    } else {
      load.refused++;
      await response?.arrayBuffer();
      await sleep(50);
    }
    load.busy--;
  }
}

async function exportOf(node: ServiceProcess, room: string): Promise<string> {
  return (await fetch(node.url(`/r/${room}/export`))).text();
}

/** The stream's records of one room with their headers, for the failure report. */
async function recordsOf(cluster: NatsCluster, room: string): Promise<string> {
  const nc = await connect({ servers: cluster.urls });
  try {
    const jsm = await jetstreamManager(nc);
    const lines: string[] = [];
    for (let seq = 1; seq <= (await jsm.streams.info(STREAM)).state.last_seq; seq++) {
      const stored = await jsm.streams.getMessage(STREAM, { seq });
      if (!stored?.subject.endsWith(`:${room}`)) continue;
      const headers = stored.header
        ? [...stored.header.keys()].map((k) => `${k}=${stored.header!.get(k)}`)
        : [];
      lines.push(`${seq} ${headers.join(' ')} ${stored.string().slice(0, 160)}`);
    }
    return lines.join('\n');
  } finally {
    await nc.close();
  }
}

async function healthOf(node: ServiceProcess): Promise<string> {
  return (await fetch(node.url('/healthz'))).text();
}

describe(`a 3-server NATS cluster, an R3 stream, two nodes under load: ${CYCLES} cycles of restarting a server and killing the leader`, () => {
  let cluster: NatsCluster | undefined;
  const roots = [makeTempDir('nats-faults-a'), makeTempDir('nats-faults-b')];
  const nodes: ServiceProcess[] = [];

  afterAll(async () => {
    await Promise.all(nodes.map((node) => node.stop()));
    await cluster?.stop();
    for (const dir of roots) dir.remove();
  });

  it(
    'loses no acknowledged write, and each node agrees with the other or refuses writes saying why',
    async () => {
      cluster = await NatsCluster.start('faults');
      const env = (root: string, order: string[]) => ({
        CHAT_ROOT: root,
        CHAT_LOG_BACKEND: 'nats',
        CHAT_NATS_URL: order.join(','),
        CHAT_NATS_STREAM: STREAM,
        CHAT_NATS_REPLICAS: '3',
        CHAT_NATS_TIMEOUT_MS: '3000',
      });
      nodes.push(await ServiceProcess.start(env(roots[0].path, cluster.urls)));
      nodes.push(await ServiceProcess.start(env(roots[1].path, [...cluster.urls].reverse())));
      const notes: string[] = [];
      nodes.forEach((node, n) =>
        node.child.stdout!.on('data', (chunk: Buffer) => {
          for (const line of chunk.toString().split('\n')) {
            // The log's own lines; per-request refusals (HttpErrorFilter) would drown them.
            if (/NATS|stream|fork|verif/i.test(line) && !/listening on|HttpErrorFilter/.test(line))
              notes.push(`node${n}: ${line.slice(0, 300)}`);
          }
        }),
      );

      const load: Load = { acked: [], refused: 0, paused: false, stopped: false, busy: 0 };
      const writers = nodes.flatMap((node, n) =>
        ['shared', `own-${n}`].map((room) => writer(node, n, room, load)),
      );
      const report: string[] = [];
      const refusing = new Set<number>();
      try {
        await sleep(1500);
        for (let cycle = 1; cycle <= CYCLES; cycle++) {
          const { leader } = await cluster.streamState(STREAM);
          const follower = cluster.servers.find((server) => server.spec.name !== leader)!;
          // 1. One server killed and started again on its store: it comes back behind and catches up.
          await cluster.kill9(follower);
          await sleep(1000);
          await cluster.restart(follower);
          await sleep(1500);
          // 2. The stream leader killed while that server may still be catching up.
          const current = (await cluster.streamState(STREAM)).leader;
          const victim = cluster.byName(current)!;
          const killedAt = Date.now();
          const ackedBefore = load.acked.length;
          await cluster.kill9(victim);
          // Resumed: the first write sent after the kill that a node acknowledged.
          const resumedAt = (n: number) => load.acked.find((w) => w.sentAt > killedAt && w.node === n)?.at;
          const deadline = killedAt + 60_000;
          while ([0, 1].some((n) => resumedAt(n) === undefined) && Date.now() < deadline) await sleep(100);
          const resumeMs = [0, 1].map((n) => (resumedAt(n) ?? Number.NaN) - killedAt);
          await cluster.restart(victim);
          await cluster.streamState(STREAM);
          await sleep(1000);

          // 3. Quiesce and compare.
          load.paused = true;
          while (load.busy > 0) await sleep(20);
          const healths = await Promise.all(nodes.map(healthOf));
          healths.forEach((health, n) => {
            if (health.includes(FORKED)) refusing.add(n);
          });
          const agreeing = nodes.filter((_, n) => !refusing.has(n));
          let lost = 0;
          for (const room of ROOMS) {
            const agreeBy = Date.now() + 30_000;
            let exports = await Promise.all(agreeing.map((node) => exportOf(node, room)));
            while (new Set(exports).size > 1 && Date.now() < agreeBy) {
              await sleep(200);
              exports = await Promise.all(agreeing.map((node) => exportOf(node, room)));
            }
            expect(new Set(exports).size).toBeLessThanOrEqual(1);
            const stored = (exports[0] ?? '')
              .trimEnd()
              .split('\n')
              .filter((line) => line !== '')
              .map((line) => JSON.parse(line) as { seq: number; text: string });
            if (stored.some((record, i) => record.seq !== i + 1)) console.log(await recordsOf(cluster, room));
            expect(stored.map((record) => record.seq)).toEqual(stored.map((_, i) => i + 1));
            const bySeq = new Map(stored.map((record) => [record.seq, record.text]));
            for (const write of load.acked.filter((w) => w.room === room)) {
              if (bySeq.get(write.seq) !== write.text) lost++;
            }
          }
          report.push(
            `cycle ${cycle}: restarted ${follower.spec.name}, killed leader ${current}; ` +
              `${load.acked.length} acknowledged (${load.acked.length - ackedBefore} since the kill), ` +
              `${load.refused} refused, lost ${lost}; resumed after ${resumeMs.join(' / ')} ms (node0 / node1)` +
              (refusing.size > 0
                ? `; refusing writes: ${[...refusing].map((n) => `node${n}`).join(', ')}`
                : ''),
          );
          expect(lost).toBe(0);
          for (const [n, ms] of resumeMs.entries()) {
            // A node resumes within the bound, or refuses writes and says why (never a silent hang).
            if (!refusing.has(n)) expect(ms).toBeLessThan(60_000);
          }
          load.paused = false;
        }
      } finally {
        load.stopped = true;
        await Promise.all(writers);
        console.log(`${report.join('\n')}\n${notes.slice(-40).join('\n')}`);
      }
      expect(load.acked.length).toBeGreaterThan(CYCLES * 10);
      // Refusing is allowed only with the reason on /healthz (checked above); with nats-server ≥ 2.12
      // neither node is expected to: this is what the issue saw on 2.9.10.
      expect([...refusing]).toEqual([]);
    },
    120_000 + CYCLES * 120_000,
  );
});

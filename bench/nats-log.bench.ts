/**
 * Issues 14 and 26: the service on the JetStream log against the file log (CHAT_FSYNC=always) in the
 * same run, and two nodes on one stream against one. Starts its own current nats-server (from
 * .tools/, scripts/install-nats-server.sh) on a port the kernel picks: never the machine's.
 *
 *   npm run build && node -r ./test/support/ts-register.js bench/nats-log.bench.ts [--seconds 5] [--rounds 2]
 *
 * Writes: POST across 1,000 rooms, 64 connections, unique texts. Reads: GET of one 50-message room
 * (JSON), 32 connections, measured before any write load (reads come from the local projection).
 * Two nodes: the same 1,000 rooms split in two disjoint halves, one per node (32 connections each),
 * against one node writing all of them in the same run: per-room preconditions mean they never
 * conflict (chat_write_conflict_retries_total must stay 0), and the CPU per write of the two should
 * be within 10 % of one node's. Hot room: both nodes writing one room, its conflict retry rate. The
 * rooms exist before any measured round (creations announce on /r/events, which every creation
 * writes). Rounds alternate; each figure is the median.
 */
import { ChildServer } from './lib/child-server';
import { BENCH_ENV, tempDataDir } from './lib/context';
import { load, LoadResult } from './lib/load';
import { postMessage, roomWrites, seedText } from './lib/room-writes';
import { cpuSeconds, measure } from './lib/proc-stats';
import { median } from './lib/stats';
import { startSuiteNats, stopSuiteNats } from '../test/support/global-nats';
import { freeLoopbackPort } from '../test/support/nats-server-process';

function arg(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
}

/** The conflict retries a node counted since it started (its metrics listener). */
async function retries(metricsPort: number): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  return Number(/^chat_write_conflict_retries_total (\d+)/m.exec(text)?.[1] ?? Number.NaN);
}

interface Node {
  readonly server: ChildServer;
  readonly metricsPort: number;
}

async function main(): Promise<void> {
  const seconds = arg('seconds', 5);
  const rounds = arg('rounds', 2);
  const nats = await startSuiteNats();
  const stream = `bench-${process.pid}`;
  const dirs = [tempDataDir('file'), tempDataDir('nats-a'), tempDataDir('nats-b')];
  const servers: ChildServer[] = [];
  const natsEnv = { CHAT_LOG_BACKEND: 'nats', CHAT_NATS_URL: nats.url, CHAT_NATS_STREAM: stream };
  const node = async (root: string): Promise<Node> => {
    const metricsPort = await freeLoopbackPort();
    const server = await ChildServer.service({
      ...BENCH_ENV,
      ...natsEnv,
      CHAT_ROOT: root,
      CHAT_METRICS_PORT: String(metricsPort),
    });
    servers.push(server);
    return { server, metricsPort };
  };
  try {
    const file = await ChildServer.service({ ...BENCH_ENV, CHAT_ROOT: dirs[0].path, CHAT_FSYNC: 'always' });
    servers.push(file);
    const [a, b] = [await node(dirs[1].path), await node(dirs[2].path)];
    const rooms = Array.from({ length: 1000 }, (_, i) => `w${i}`);
    const [half0, half1] = [rooms.slice(0, 500), rooms.slice(500)];
    // Every room exists before anything is measured, created through the node that writes it.
    for (let i = 0; i < 50; i++)
      await Promise.all([
        postMessage(file.url, 'readme', seedText(i)),
        postMessage(a.server.url, 'readme', seedText(i)),
      ]);
    for (const room of rooms) await postMessage(file.url, room, 'seed');
    for (const [n, half] of [half0, half1].entries())
      for (const room of half) await postMessage([a, b][n].server.url, room, 'seed');
    await postMessage(a.server.url, 'hot', 'seed');

    const figures: Record<string, number[]> = {
      fileW: [],
      natsW: [],
      fileR: [],
      natsR: [],
      oneW: [],
      twoW: [],
    };
    // CPU µs per request: a cost that holds on a machine shared with other work, where req/s
    // ratios swing with the neighbours' load. "+nats" adds the nats-server's CPU over the interval.
    const cost: Record<string, number[]> = {
      fileW: [],
      natsW: [],
      fileR: [],
      natsR: [],
      oneW: [],
      twoW: [],
      oneWn: [],
      twoWn: [],
    };
    const timed = async (key: string, server: ChildServer, work: () => Promise<LoadResult>) => {
      const natsBefore = cpuSeconds(nats.child.pid!);
      const started = Date.now();
      const { result, cpu } = await measure(server.pid, work);
      const natsCpu = key.startsWith('nats')
        ? (cpuSeconds(nats.child.pid!) - natsBefore) / ((Date.now() - started) / 1000)
        : 0;
      figures[key].push(result.rps);
      cost[key].push(((cpu + natsCpu) / result.rps) * 1e6);
    };
    const read = (url: string) => load({ url: `${url}/r/readme?format=json`, seconds, connections: 32 });
    for (let round = 0; round < rounds; round++) {
      await timed('fileR', file, () => read(file.url));
      await timed('natsR', a.server, () => read(a.server.url));
    }
    for (let round = 0; round < rounds; round++) {
      await timed('fileW', file, () => roomWrites(file.url, rooms, seconds, 64, `f${round}`));
      await timed('natsW', a.server, () => roomWrites(a.server.url, rooms, seconds, 64, `n${round}`));
    }
    await file.stop();

    // One node on all 1,000 rooms against two nodes on disjoint halves, alternating, same rooms.
    const nodeCpu = () => cpuSeconds(a.server.pid) + cpuSeconds(b.server.pid);
    let disjointRetries = 0;
    for (let round = 0; round < rounds; round++) {
      for (const two of [false, true]) {
        const before = {
          cpu: nodeCpu(),
          nats: cpuSeconds(nats.child.pid!),
          retries: (await retries(a.metricsPort)) + (await retries(b.metricsPort)),
        };
        const results = two
          ? await Promise.all([
              roomWrites(a.server.url, half0, seconds, 32, `d${round}a`),
              roomWrites(b.server.url, half1, seconds, 32, `d${round}b`),
            ])
          : [await roomWrites(a.server.url, rooms, seconds, 64, `o${round}`)];
        const acked = results.reduce((sum, r) => sum + r.ok, 0);
        const after = {
          cpu: nodeCpu(),
          nats: cpuSeconds(nats.child.pid!),
          retries: (await retries(a.metricsPort)) + (await retries(b.metricsPort)),
        };
        const key = two ? 'twoW' : 'oneW';
        figures[key].push(acked / seconds);
        cost[key].push(((after.cpu - before.cpu) / acked) * 1e6);
        cost[`${key}n`].push(((after.cpu - before.cpu + after.nats - before.nats) / acked) * 1e6);
        if (two) disjointRetries += after.retries - before.retries;
      }
    }

    // One hot room written through both nodes: conflicts are expected, their rate is reported.
    const hotBefore = (await retries(a.metricsPort)) + (await retries(b.metricsPort));
    const hot = await Promise.all([
      roomWrites(a.server.url, ['hot'], seconds, 32, 'ha'),
      roomWrites(b.server.url, ['hot'], seconds, 32, 'hb'),
    ]);
    const hotRetries = (await retries(a.metricsPort)) + (await retries(b.metricsPort)) - hotBefore;
    const hotAcked = hot[0].ok + hot[1].ok;

    const m = Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, median(v)]));
    const c = Object.fromEntries(Object.entries(cost).map(([k, v]) => [k, median(v)]));
    const pct = (x: number, y: number) => `${((x / y) * 100).toFixed(0)} %`;
    const us = (key: string) => `${c[key].toFixed(0)} µs`;
    console.log('| measure | file log | JetStream R1 | ratio (req/s; cost: file ÷ nats CPU) | goal |');
    console.log('|---|---|---|---|---|');
    console.log(
      `| writes/s, 1,000 rooms, 64 conn | ${m.fileW.toFixed(0)} (${us('fileW')}) | ${m.natsW.toFixed(0)} (${us('natsW')}) | ` +
        `${pct(m.natsW, m.fileW)}; cost ${pct(c.fileW, c.natsW)} | ≥ 50 % |`,
    );
    console.log(
      `| reads/s, 50-message room, 32 conn | ${m.fileR.toFixed(0)} (${us('fileR')}) | ${m.natsR.toFixed(0)} (${us('natsR')}) | ` +
        `${pct(m.natsR, m.fileR)}; cost ${pct(c.fileR, c.natsR)} | ≥ 90 % |`,
    );
    console.log('');
    console.log(
      '| two nodes, disjoint halves of the 1,000 rooms, vs one node on all | one node | two nodes | ratio | goal |',
    );
    console.log('|---|---|---|---|---|');
    console.log(
      `| writes/s | ${m.oneW.toFixed(0)} | ${m.twoW.toFixed(0)} | ${pct(m.twoW, m.oneW)} | reported |`,
    );
    console.log(
      `| service CPU per write | ${us('oneW')} | ${us('twoW')} | ${pct(c.twoW, c.oneW)} | within 10 % |`,
    );
    console.log(
      `| service + nats-server CPU per write | ${us('oneWn')} | ${us('twoWn')} | ${pct(c.twoWn, c.oneWn)} | reported |`,
    );
    console.log(`| conflict retries (chat_write_conflict_retries_total) | — | ${disjointRetries} | — | 0 |`);
    console.log('');
    console.log(
      `hot room through both nodes (32 conn each): ${hotAcked} writes in ${seconds} s, ${hotRetries} conflict retries ` +
        `(${((hotRetries / Math.max(1, hotAcked)) * 100).toFixed(1)} per 100 writes), ${hot[0].errors + hot[1].errors} refused`,
    );
  } finally {
    for (const server of servers) await server.stop();
    await stopSuiteNats(nats);
    for (const dir of dirs) dir.dispose();
  }
}

void main();

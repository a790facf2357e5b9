/**
 * Issue 14: the service on the JetStream log (R1, the shared nats-server on 127.0.0.1:4222) against
 * the file log (CHAT_FSYNC=always) in the same run, and two nodes on one stream against one.
 *
 *   npm run build && node -r ./test/support/ts-register.js bench/nats-log.bench.ts [--seconds 5] [--rounds 2]
 *
 * Writes: POST across 1,000 rooms, 64 connections, unique texts. Reads: GET of one 50-message room
 * (JSON), 32 connections, measured before any write load — reads come from the local projection
 * whatever the log. Two nodes: the
 * same write load split over two service processes on one stream (conflicting writes retry). Rounds
 * alternate file and nats; each figure is the median. Goals (issue 14): nats writes ≥ 50 % of the
 * file log's, nats reads within 10 %. Uses a fresh stream, deleted afterwards.
 */
import { ChildServer } from './lib/child-server';
import { BENCH_ENV, tempDataDir } from './lib/context';
import { load, LoadResult } from './lib/load';
import { execSync } from 'node:child_process';
import { cpuSeconds, measure } from './lib/proc-stats';
import { median } from './lib/stats';
import { deleteStream, NATS_URL, uniqueStreamName } from '../test/support/nats-stream';

const TEXT = 'benchmark write with a realistic length of a short agent status update';

function arg(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
}

function writes(url: string, seconds: number, connections: number, tag: string): Promise<LoadResult> {
  let n = 0;
  const next = (request: Record<string, unknown>) => ({
    ...request,
    method: 'POST',
    path: `/r/w${n % 1000}`,
    body: JSON.stringify({ from: 'bench', text: `${TEXT} ${tag} ${n++}` }),
  });
  return load({
    url,
    seconds,
    connections,
    headers: { 'content-type': 'application/json' },
    requests: [{ setupRequest: next }] as never,
  });
}

async function seedRoom(url: string): Promise<void> {
  for (let i = 0; i < 50; i++) {
    await fetch(`${url}/r/readme`, {
      method: 'POST',
      body: JSON.stringify({ from: 'seed', text: `${TEXT} ${i}` }),
    });
  }
}

/** The pid of the nats-server on 127.0.0.1:4222, if this machine runs it as a process we can see. */
function natsServerPid(): number | undefined {
  try {
    const pid = Number(execSync("pgrep -f 'nats-server.*-p 4222'").toString().trim().split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

async function main(): Promise<void> {
  const seconds = arg('seconds', 5);
  const rounds = arg('rounds', 2);
  const stream = uniqueStreamName('bench');
  const dirs = [tempDataDir('file'), tempDataDir('nats-a'), tempDataDir('nats-b')];
  const nats = { CHAT_LOG_BACKEND: 'nats', CHAT_NATS_URL: NATS_URL, CHAT_NATS_STREAM: stream };
  const servers: ChildServer[] = [];
  try {
    const file = await ChildServer.service({ ...BENCH_ENV, CHAT_ROOT: dirs[0].path, CHAT_FSYNC: 'always' });
    servers.push(file);
    const nodeA = await ChildServer.service({ ...BENCH_ENV, ...nats, CHAT_ROOT: dirs[1].path });
    servers.push(nodeA);
    await Promise.all([seedRoom(file.url), seedRoom(nodeA.url)]);
    const figures: Record<string, number[]> = { fileW: [], natsW: [], fileR: [], natsR: [], twoW: [] };
    // CPU µs per request: a cost ratio that holds on a machine shared with other work, where req/s
    // ratios swing with the neighbours' load. On nats it includes the nats-server's CPU over the
    // same interval (the file log's fsync work is the service's own).
    const cost: Record<string, number[]> = { fileW: [], natsW: [], fileR: [], natsR: [] };
    const natsPid = natsServerPid();
    const timed = async (key: string, server: ChildServer, work: () => Promise<LoadResult>) => {
      const natsBefore = natsPid && key.startsWith('nats') ? cpuSeconds(natsPid) : 0;
      const started = Date.now();
      const { result, cpu } = await measure(server.pid, work);
      const natsCpu =
        natsPid && key.startsWith('nats')
          ? (cpuSeconds(natsPid) - natsBefore) / ((Date.now() - started) / 1000)
          : 0;
      figures[key].push(result.rps);
      cost[key].push(((cpu + natsCpu) / result.rps) * 1e6);
    };
    // Reads first, while the stream is idle: after a write phase the nats-server keeps working for a
    // while (storing what it acknowledged), and on a 2-core machine that would be charged to the reads.
    const read = (url: string) => load({ url: `${url}/r/readme?format=json`, seconds, connections: 32 });
    for (let round = 0; round < rounds; round++) {
      await timed('fileR', file, () => read(file.url));
      await timed('natsR', nodeA, () => read(nodeA.url));
    }
    for (let round = 0; round < rounds; round++) {
      await timed('fileW', file, () => writes(file.url, seconds, 64, `f${round}`));
      await timed('natsW', nodeA, () => writes(nodeA.url, seconds, 64, `n${round}`));
    }
    await file.stop();
    const nodeB = await ChildServer.service({ ...BENCH_ENV, ...nats, CHAT_ROOT: dirs[2].path });
    servers.push(nodeB);
    for (let round = 0; round < rounds; round++) {
      const both = await Promise.all([
        writes(nodeA.url, seconds, 32, `a${round}`),
        writes(nodeB.url, seconds, 32, `b${round}`),
      ]);
      figures.twoW.push(both[0].rps + both[1].rps);
    }
    const m = Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, median(v)]));
    const c = Object.fromEntries(Object.entries(cost).map(([k, v]) => [k, median(v)]));
    const pct = (a: number, b: number) => `${((a / b) * 100).toFixed(0)} %`;
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
    console.log(
      `| writes/s, two nats nodes (32 conn each) vs one | — | ${m.twoW.toFixed(0)} vs ${m.natsW.toFixed(0)} | ${pct(m.twoW, m.natsW)} | reported |`,
    );
  } finally {
    for (const server of servers) await server.stop();
    await deleteStream(stream);
    for (const dir of dirs) dir.dispose();
  }
}

void main();

/**
 * Issue 14: the service on the JetStream log (R1, the shared nats-server on 127.0.0.1:4222) against
 * the file log (CHAT_FSYNC=always) in the same run, and two nodes on one stream against one.
 *
 *   npm run build && node -r ./test/support/ts-register.js bench/nats-log.bench.ts [--seconds 5] [--rounds 2]
 *
 * Writes: POST across 1,000 rooms, 64 connections, unique texts. Reads: GET of one 50-message room
 * (JSON), 32 connections — reads come from the local projection whatever the log. Two nodes: the
 * same write load split over two service processes on one stream (conflicting writes retry). Rounds
 * alternate file and nats; each figure is the median. Goals (issue 14): nats writes ≥ 50 % of the
 * file log's, nats reads within 10 %. Uses a fresh stream, deleted afterwards.
 */
import { ChildServer } from './lib/child-server';
import { BENCH_ENV, tempDataDir } from './lib/context';
import { load, LoadResult } from './lib/load';
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
    for (let round = 0; round < rounds; round++) {
      figures.fileW.push((await writes(file.url, seconds, 64, `f${round}`)).rps);
      figures.natsW.push((await writes(nodeA.url, seconds, 64, `n${round}`)).rps);
      const read = (url: string) => load({ url: `${url}/r/readme?format=json`, seconds, connections: 32 });
      figures.fileR.push((await read(file.url)).rps);
      figures.natsR.push((await read(nodeA.url)).rps);
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
    const pct = (a: number, b: number) => `${((a / b) * 100).toFixed(0)} %`;
    console.log('| measure | file log | JetStream R1 | ratio | goal |');
    console.log('|---|---|---|---|---|');
    console.log(
      `| writes/s, 1,000 rooms, 64 conn | ${m.fileW.toFixed(0)} | ${m.natsW.toFixed(0)} | ${pct(m.natsW, m.fileW)} | ≥ 50 % |`,
    );
    console.log(
      `| reads/s, 50-message room, 32 conn | ${m.fileR.toFixed(0)} | ${m.natsR.toFixed(0)} | ${pct(m.natsR, m.fileR)} | ≥ 90 % |`,
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

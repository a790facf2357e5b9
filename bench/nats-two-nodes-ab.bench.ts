/**
 * Issue 26's CPU per write with two nodes, as bench/nats-log.bench.ts measures it, for two builds of
 * this checkout in one run: a change to the log is judged against the build before it under the same
 * machine load (the 2-core machine's load swings the ratio by tens of percent from run to run).
 *
 *   cp -a dist dist-before   # the build to compare against, then rebuild with the change
 *   npm run build && node -r ./test/support/ts-register.js bench/nats-two-nodes-ab.bench.ts \
 *     --builds dist-before,dist [--rounds 6] [--seconds 5]
 *
 * Each build runs two nodes on a stream of its own (one nats-server for all). Every round measures,
 * for each build, one node writing 1,000 rooms (64 connections) and the two nodes writing disjoint
 * halves (32 each); the order of builds and of modes alternates between rounds. CPU per write is both
 * nodes' CPU over the acknowledged writes, in both modes (in the one-node mode the other node only
 * folds what the first wrote). Printed: per build and mode the median, and each node's share.
 */
import { ChildServer } from './lib/child-server';
import { BENCH_ENV, tempDataDir } from './lib/context';
import { cpuSeconds } from './lib/proc-stats';
import { postMessage, roomWrites } from './lib/room-writes';
import { median } from './lib/stats';
import { startSuiteNats, stopSuiteNats } from '../test/support/global-nats';

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : fallback;
}

const builds = option('builds', 'dist-before,dist').split(',');
const rounds = Number(option('rounds', '6'));
const seconds = Number(option('seconds', '5'));
const rooms = Array.from({ length: 1000 }, (_, i) => `w${i}`);
const halves = [rooms.slice(0, 500), rooms.slice(500)];

type Pair = readonly [ChildServer, ChildServer];

/** One round of one build and mode: µs of CPU per acknowledged write, both nodes and each. */
async function round(pair: Pair, two: boolean, tag: string): Promise<{ both: number; a: number; b: number }> {
  const before = pair.map((node) => cpuSeconds(node.pid));
  const results = two
    ? await Promise.all(pair.map((node, n) => roomWrites(node.url, halves[n], seconds, 32, `${tag}${n}`)))
    : [await roomWrites(pair[0].url, rooms, seconds, 64, tag)];
  const acked = results.reduce((sum, result) => sum + result.ok, 0);
  const [a, b] = pair.map((node, n) => ((cpuSeconds(node.pid) - before[n]) / acked) * 1e6);
  return { both: a + b, a, b };
}

async function main(): Promise<void> {
  if (new Set(builds).size !== builds.length)
    throw new Error(`--builds names a build twice: ${builds.join(',')}`);
  const nats = await startSuiteNats();
  const servers: ChildServer[] = [];
  const dirs: ReturnType<typeof tempDataDir>[] = [];
  try {
    const pairs: Pair[] = [];
    for (const [i, build] of builds.entries()) {
      const node = async (name: string) => {
        const dir = tempDataDir(`ab-${i}${name}`);
        dirs.push(dir);
        const env = {
          CHAT_LOG_BACKEND: 'nats',
          CHAT_NATS_URL: nats.url,
          CHAT_NATS_STREAM: `ab${i}-${process.pid}`,
        };
        const server = await ChildServer.service({ ...BENCH_ENV, ...env, CHAT_ROOT: dir.path }, build);
        servers.push(server);
        return server;
      };
      const pair = [await node('a'), await node('b')] as const;
      // Every room exists before anything is measured, created through the node that writes it.
      for (const [n, half] of halves.entries())
        for (const room of half) await postMessage(pair[n].url, room, 'seed');
      pairs.push(pair);
    }
    const cost = new Map<string, { both: number; a: number; b: number }[]>();
    for (let r = 0; r < rounds; r++) {
      const order = r % 2 === 0 ? builds.map((_, i) => i) : builds.map((_, i) => builds.length - 1 - i);
      for (const two of r % 4 < 2 ? [false, true] : [true, false]) {
        for (const i of order) {
          const key = `${builds[i]}, ${two ? 'two nodes' : 'one node'}`;
          cost.set(key, [...(cost.get(key) ?? []), await round(pairs[i], two, `r${r}`)]);
        }
      }
    }
    const us = (values: number[]) => `${median(values).toFixed(0)} µs`;
    for (const [key, figures] of cost) {
      const both = figures.map((f) => f.both);
      console.log(
        `${key}: ${us(both)} per write (rounds ${both.map((x) => x.toFixed(0)).join(' ')}; ` +
          `node a ${us(figures.map((f) => f.a))}, node b ${us(figures.map((f) => f.b))})`,
      );
    }
    for (const build of builds) {
      const one = cost.get(`${build}, one node`)!.map((f) => f.both);
      const two = cost.get(`${build}, two nodes`)!.map((f) => f.both);
      const perRound = median(two.map((t, i) => t / one[i]));
      console.log(
        `${build}: two nodes ÷ one node ${((median(two) / median(one)) * 100).toFixed(0)} % ` +
          `(median of per-round ratios ${(perRound * 100).toFixed(0)} %)`,
      );
    }
  } finally {
    for (const server of servers) await server.stop();
    await stopSuiteNats(nats);
    for (const dir of dirs) dir.dispose();
  }
}

void main();

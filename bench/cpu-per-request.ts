/**
 * CPU per request of two builds of the service, side by side in one run: the before → after figure
 * of an optimisation on a machine too busy for stable req/s ratios. Server CPU (user + system, all
 * threads) over the successful requests of each round; rounds alternate between the builds.
 *
 *   npm run build && cp -r dist /tmp/dists/after   # and a build of the older commit in /tmp/dists/before
 *   ln -s $PWD/node_modules /tmp/dists/node_modules
 *   node -r ./test/support/ts-register.js bench/cpu-per-request.ts \
 *     --builds /tmp/dists/before,/tmp/dists/after --cases writes,read-json,read-text,note,rooms
 *
 * A build may carry node flags after `@` (`dist@--max-semi-space-size=32`) to compare runtime
 * settings on one build, or another node binary (`dist@node=.tools/node24/bin/node`, from
 * scripts/install-node24.sh) to compare runtimes, or environment variables (`dist@env:KEY=value`);
 * npm start's --max-old-space-size=1024 and --max-semi-space-size=32 are added unless a flag of the
 * build sets them.
 */
import { join } from 'node:path';
import { generateSigningKey, SigningKey } from '../src/identity/signing-key';
import { ChildServer } from './lib/child-server';
import { BENCH_ENV, log, tempDataDir } from './lib/context';
import { get, inParallel, postJson } from './lib/http-client';
import { load, LoadOptions } from './lib/load';
import { PresignedBodies, presignedPerKey } from './lib/presigned-bodies';
import { measure } from './lib/proc-stats';
import { median } from './lib/stats';

const TEXT = 'benchmark write with a realistic length of a short agent status update';

interface Case {
  readonly connections: number;
  seed(url: string): Promise<void>;
  load(url: string): Omit<LoadOptions, 'seconds' | 'connections'>;
}

/** Unique POST writes spread over `rooms` rooms (1: one hot room). */
function uniqueWrites(rooms: number): Array<Record<string, unknown>> {
  let n = 0;
  const write = (request: Record<string, unknown>) => ({
    ...request,
    method: 'POST',
    path: rooms === 1 ? '/r/hot' : `/r/w${n % rooms}`,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ from: 'bench', text: `${TEXT} ${n++}` }),
  });
  return [{ setupRequest: write }];
}

const seedRoom = (url: string) =>
  inParallel(1000, 32, (i) =>
    postJson(`${url}/r/bench`, { from: `writer${i % 7}`, text: `message ${i} ${'lorem ipsum '.repeat(6)}` }),
  );

/** Signed writes, one key per connection; bodies presigned per server (each has its own nonces). */
const SIGNED_CONNECTIONS = 32;
const signers = new Map<string, { keys: SigningKey[]; bodies: PresignedBodies }>();
function signedWrites(url: string): Array<Record<string, unknown>> {
  let signer = signers.get(url);
  if (signer === undefined) {
    const keys = Array.from({ length: SIGNED_CONNECTIONS }, () => generateSigningKey());
    signer = { keys, bodies: new PresignedBodies(keys, TEXT, presignedPerKey(keys.length, 30)) };
    signers.set(url, signer);
  }
  return signer.bodies.requests(signer.keys);
}

const CASES: Record<string, Case> = {
  signed: {
    connections: SIGNED_CONNECTIONS,
    seed: async () => {},
    load: (url) => ({ url, requests: signedWrites(url) as never }),
  },
  writes: {
    connections: 64,
    seed: async () => {},
    load: (url) => ({ url, requests: uniqueWrites(1000) as never }),
  },
  hot: {
    connections: 64,
    seed: async () => {},
    load: (url) => ({ url, requests: uniqueWrites(1) as never }),
  },
  'read-json': {
    connections: 32,
    seed: seedRoom,
    load: (url) => ({ url: `${url}/r/bench?limit=50&format=json` }),
  },
  'read-text': { connections: 32, seed: seedRoom, load: (url) => ({ url: `${url}/r/bench?limit=50` }) },
  note: {
    connections: 32,
    seed: (url) =>
      get(`${url}/kv/bench/status/set/${encodeURIComponent('ready: '.repeat(30))}`).then(() => {}),
    load: (url) => ({ url: `${url}/kv/bench/status` }),
  },
  rooms: {
    connections: 32,
    seed: (url) =>
      inParallel(5000, 32, (i) => postJson(`${url}/r/room${i}`, { from: 'seed', text: `hello ${i}` })),
    load: (url) => ({ url: `${url}/rooms` }),
  },
};

function option(name: string): string {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0 || !process.argv[i + 1]) throw new Error(`--${name} is required`);
  return process.argv[i + 1];
}

async function runCase(name: string, builds: string[], rounds: number, seconds: number): Promise<void> {
  const spec = CASES[name];
  const data = builds.map(() => tempDataDir(`cpu-${name}`));
  const servers: ChildServer[] = [];
  try {
    for (const [i, build] of builds.entries()) {
      const env: Record<string, string> = {
        ...BENCH_ENV,
        CHAT_ROOT: data[i].path,
        CHAT_FSYNC: 'always',
        PORT: '0',
        HOST: '127.0.0.1',
      };
      // `dir@--flag@--flag`: node flags for this build only (GC settings compared on one build);
      // `dir@node=<path>`: run this build on another node binary (Node 20 against Node 24).
      const [dir, ...parts] = build.split('@');
      // `dir@env:KEY=value`: an environment variable for this build only (tracing on against off).
      const nodeBinary = parts.find((part) => part.startsWith('node='))?.slice('node='.length);
      const own = parts.filter((part) => part.startsWith('env:')).map((part) => part.slice(4).split('='));
      Object.assign(env, Object.fromEntries(own.map(([key, ...value]) => [key, value.join('=')])));
      const flags = parts.filter((part) => !part.startsWith('node=') && !part.startsWith('env:'));
      // As npm start runs it, unless the build's flags say otherwise.
      const defaults = ['--max-old-space-size=1024', '--max-semi-space-size=32'].filter(
        (flag) => !flags.some((own) => own.split('=')[0] === flag.split('=')[0]),
      );
      const nodeFlags = [...defaults, ...flags];
      servers.push(await ChildServer.start([...nodeFlags, join(dir, 'main.js')], env, nodeBinary));
      await spec.seed(servers[i].url);
      await load({ ...spec.load(servers[i].url), seconds: 2, connections: spec.connections }); // warm-up
    }
    const perBuild = builds.map(() => ({ micros: [] as number[], rps: [] as number[] }));
    for (let round = 0; round < rounds; round++) {
      for (const [i, server] of servers.entries()) {
        const { result, cpu } = await measure(server.pid, () =>
          load({ ...spec.load(server.url), seconds, connections: spec.connections }),
        );
        perBuild[i].micros.push((cpu * seconds * 1e6) / result.ok);
        perBuild[i].rps.push(result.rps);
      }
    }
    for (const [i, build] of builds.entries()) {
      const { micros, rps } = perBuild[i];
      process.stdout.write(
        `${name}\t${build}\tCPU µs/request ${median(micros).toFixed(1)} (${micros.map((m) => m.toFixed(1)).join(', ')})\treq/s ${median(rps).toFixed(0)}\n`,
      );
    }
  } finally {
    for (const server of servers) await server.stop();
    for (const dir of data) dir.dispose();
  }
}

async function main(): Promise<void> {
  const builds = option('builds').split(',');
  const cases = option('cases').split(',');
  const unknown = cases.filter((c) => !(c in CASES));
  if (unknown.length > 0)
    throw new Error(`unknown case ${unknown.join(', ')}; known: ${Object.keys(CASES).join(', ')}`);
  const rounds = Number(process.argv.includes('--rounds') ? option('rounds') : '3');
  const seconds = Number(process.argv.includes('--seconds') ? option('seconds') : '5');
  for (const name of cases) {
    log(`case ${name} …`);
    await runCase(name, builds, rounds, seconds);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});

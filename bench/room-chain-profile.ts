/**
 * Where the room hash chain's CPU goes on the hot-room write path (issue 29): one server, chain on,
 * run with `--cpu-prof`, takes a fixed number of durable POST writes into one room (enough to compact
 * its ring several times), then prints the profile's time inside the chain's functions per write,
 * against the server's busy (non-idle) time per write.
 *
 *   npm run build && node -r ./test/support/ts-register.js bench/room-chain-profile.ts [writes, default 200000] [build, default dist]
 *
 * A sampling profile: the figures carry the profiler's own overhead (a few % more CPU per write than
 * bench/cpu-per-request.ts measures) and a resolution of the sampling interval; they say where the
 * time goes, the A/B in cpu-per-request.ts says what it costs.
 */
import autocannon from 'autocannon';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChildServer } from './lib/child-server';
import { BENCH_ENV, log, tempDataDir } from './lib/context';
import { get } from './lib/http-client';
import { CpuProfile, profileTimes } from './lib/cpu-profile';

const TEXT = 'benchmark write with a realistic length of a short agent status update';

/**
 * What the profile is asked, as functions are named in dist/: the chain as a whole (each sample
 * counted once), then its parts and their context. Moving the anchor at compaction is `movedAnchor`
 * (marks, the read of the dropped bytes, chainOver) since chain marks, and was `chainOver` plus the
 * `readRange` called straight from the projection's `compact` before; `remember` keeps the marks.
 * `compact` is the compaction itself (the compactor's own `compact` and its reads) with the chain's part.
 */
const ROWS: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['the chain', ['chainNext', 'chainOver', 'compact>readRange', 'movedAnchor', 'remember']],
  ['chainNext (every link, compaction included)', ['chainNext']],
  ['moving the anchor at compaction', ['chainOver', 'compact>readRange', 'movedAnchor']],
  ['remember (chain marks)', ['remember']],
  ['appended (applying a write)', ['appended']],
  ['compact (compaction, chain included)', ['compact']],
];

async function main(): Promise<void> {
  const writes = Number(process.argv[2] ?? '200000');
  const build = process.argv[3] ?? 'dist';
  const data = tempDataDir('chain-profile');
  const profiles = mkdtempSync(join(tmpdir(), 'agent-chat-bench-chain-prof-'));
  try {
    const server = await ChildServer.start(
      [
        '--max-old-space-size=1024',
        '--max-semi-space-size=32',
        '--cpu-prof',
        `--cpu-prof-dir=${profiles}`,
        join(build, 'main.js'),
      ],
      {
        ...BENCH_ENV,
        CHAT_ROOT: data.path,
        CHAT_FSYNC: 'always',
        CHAT_ROOM_CHAIN: 'on',
        PORT: '0',
        HOST: '127.0.0.1',
      },
    );
    let n = 0;
    try {
      log(`${writes} writes into one room …`);
      await autocannon({
        url: server.url,
        connections: 64,
        amount: writes,
        requests: [
          {
            method: 'POST',
            path: '/r/hot',
            headers: { 'content-type': 'application/json' },
            setupRequest: (request: Record<string, unknown>) => ({
              ...request,
              body: JSON.stringify({ from: 'bench', text: `${TEXT} ${n++}` }),
            }),
          },
        ] as never,
      });
      const head = JSON.parse(await get(`${server.url}/r/hot/head`)) as {
        last_seq: number;
        first_seq: number;
      };
      log(`room head: last_seq ${head.last_seq}, first_seq ${head.first_seq}`);
      n = head.last_seq;
    } finally {
      await server.stop();
    }
    // The main thread's profile is the largest (the others are worker threads).
    const files = readdirSync(profiles).map((name) => join(profiles, name));
    const main = files.map((file) => readFileSync(file, 'utf8')).sort((a, b) => b.length - a.length)[0];
    const times = profileTimes(JSON.parse(main) as CpuProfile);
    const row = (label: string, micros: number) =>
      `${label.padEnd(44)} ${(micros / 1e3).toFixed(0).padStart(7)} ms ${(micros / n).toFixed(2).padStart(8)} µs/write ${((100 * micros) / times.busy).toFixed(2).padStart(6)} %\n`;
    process.stdout.write(`${n} writes; self + children time, µs per write, share of the busy time\n`);
    process.stdout.write(row('busy (not idle)', times.busy));
    for (const [label, frames] of ROWS) process.stdout.write(row(label, times.within(...frames)));
  } finally {
    data.dispose();
    rmSync(profiles, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});

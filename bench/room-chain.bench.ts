import { performance } from 'node:perf_hooks';
import { join, resolve } from 'node:path';
import type { loadConfig as LoadConfig } from '../src/config/load-config';
import type { RoomEvent } from '../src/events/chat-event';
import type { unsignedRecordLine as UnsignedRecordLine } from '../src/rooms/read-side/stored-record';
import type { RingFileStore as Files } from '../src/rooms/ring/ring-file-store';
import type { TailCache as Tails } from '../src/rooms/ring/tail-cache';
import type { RoomsProjection as Projection } from '../src/rooms/rooms.projection';
import { makeTempDir } from '../test/support/temp-dir';
import { median } from './lib/stats';

/**
 * What the room hash chain (issue 29) adds to applying one write: the rooms projection folding
 * `message.appended` events into real ring files, CHAT_ROOM_CHAIN on against off, rounds alternating
 * in one process (medians). `--rooms 1` writes one hot room, whose ring compacts every ~5 MiB (the
 * chain's anchor moves then); `--builds` compares builds of the projection (directories holding a
 * `tsc` output such as dist/; default: this checkout's sources). The end-to-end comparison is
 * `bench/cpu-per-request.ts --builds dist@env:CHAT_ROOM_CHAIN=on,dist@env:CHAT_ROOM_CHAIN=off`;
 * on a loaded 2-core host its noise is larger than this difference, which is why it is isolated here.
 *
 *   node -r ./test/support/ts-register.js bench/room-chain.bench.ts [rounds, default 7] [writes per round, default 100000] \
 *     [--rooms 1000] [--builds /tmp/dists/before,dist]
 */
const TEXT = 'benchmark write with a realistic length of a short agent status update';

interface Build {
  readonly loadConfig: typeof LoadConfig;
  readonly unsignedRecordLine: typeof UnsignedRecordLine;
  readonly RingFileStore: typeof Files;
  readonly TailCache: typeof Tails;
  readonly RoomsProjection: typeof Projection;
}

/** The projection and what it needs, from `dir` (compiled JavaScript) or from these sources. */
function load(dir: string | undefined): Build {
  const from = (path: string) => (dir === undefined ? join('..', 'src', path) : resolve(dir, path));
  /* eslint-disable @typescript-eslint/no-require-imports */
  return {
    ...(require(from('config/load-config')) as Pick<Build, 'loadConfig'>),
    ...(require(from('rooms/read-side/stored-record')) as Pick<Build, 'unsignedRecordLine'>),
    ...(require(from('rooms/ring/ring-file-store')) as Pick<Build, 'RingFileStore'>),
    ...(require(from('rooms/ring/tail-cache')) as Pick<Build, 'TailCache'>),
    ...(require(from('rooms/rooms.projection')) as Pick<Build, 'RoomsProjection'>),
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
}

function run(build: Build, chain: 'on' | 'off', writes: number, rooms: number): number {
  const dir = makeTempDir('agent-chat-bench-chain');
  try {
    const files = new build.RingFileStore(dir.path);
    const projection = new build.RoomsProjection(
      build.loadConfig({ CHAT_ROOT: dir.path, CHAT_ROOM_CHAIN: chain }),
      files,
      new build.TailCache(1 << 20),
    );
    const at = Date.now() * 1000;
    for (let r = 0; r < rooms; r++)
      projection.apply({ type: 'room.created', room: `w${r}`, generation: 1, at });
    const events: RoomEvent[] = Array.from({ length: writes }, (_, n) => {
      const seq = Math.floor(n / rooms) + 1;
      const ts = new Date(at / 1000 + n).toISOString();
      return {
        type: 'message.appended',
        room: `w${n % rooms}`,
        seq,
        at: at + n,
        record: build.unsignedRecordLine(seq, ts, 'bench', `${TEXT} ${n}`),
      };
    });
    const started = performance.now();
    for (const event of events) projection.apply(event);
    const micros = ((performance.now() - started) * 1000) / writes;
    files.close(); // writes what it held and stops its flush timer
    return micros;
  } finally {
    dir.remove();
  }
}

function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? fallback : process.argv[i + 1];
}

function main(): void {
  // Positional: the arguments that neither are an option nor follow one.
  const positional = process.argv
    .slice(2)
    .filter((arg, i, all) => !arg.startsWith('--') && !all[i - 1]?.startsWith('--'));
  const rounds = Number(positional[0] ?? '7');
  const writes = Number(positional[1] ?? '100000');
  const rooms = Number(option('rooms', '1000'));
  const dirs = option('builds', '')
    .split(',')
    .filter((dir) => dir !== '');
  const builds =
    dirs.length === 0
      ? [{ name: 'src', build: load(undefined) }]
      : dirs.map((dir) => ({ name: dir, build: load(dir) }));
  const times = builds.map(() => ({ on: [] as number[], off: [] as number[] }));
  for (const { build } of builds) run(build, 'on', writes / 10, rooms); // warm-up
  for (let round = 0; round < rounds; round++) {
    for (const [i, { build }] of builds.entries()) {
      times[i].on.push(run(build, 'on', writes, rooms));
      times[i].off.push(run(build, 'off', writes, rooms));
    }
  }
  const fmt = (values: number[]) => values.map((v) => v.toFixed(2)).join(', ');
  for (const [i, { name }] of builds.entries()) {
    const { on, off } = times[i];
    const [mOn, mOff] = [median(on), median(off)];
    // The fastest round is the least disturbed by neighbours on a shared host: reported beside the median.
    const [minOn, minOff] = [Math.min(...on), Math.min(...off)];
    process.stdout.write(
      `${name}: apply message.appended, ${rooms} room(s): chain on ${mOn.toFixed(2)} µs (${fmt(on)}), off ${mOff.toFixed(2)} µs ` +
        `(${fmt(off)}); the chain adds ${(mOn - mOff).toFixed(2)} µs per write (fastest rounds: ` +
        `${minOn.toFixed(2)} against ${minOff.toFixed(2)}, +${(minOn - minOff).toFixed(2)} µs)\n`,
    );
  }
}

main();

import { performance } from 'node:perf_hooks';
import { loadConfig } from '../src/config/load-config';
import { RoomEvent } from '../src/events/chat-event';
import { unsignedRecordLine } from '../src/rooms/read-side/stored-record';
import { RingFileStore } from '../src/rooms/ring/ring-file-store';
import { TailCache } from '../src/rooms/ring/tail-cache';
import { RoomsProjection } from '../src/rooms/rooms.projection';
import { makeTempDir } from '../test/support/temp-dir';
import { median } from './lib/stats';

/**
 * What the room hash chain (issue 29) adds to applying one write: the rooms projection folding
 * `message.appended` events over 1,000 rooms into real ring files, CHAT_ROOM_CHAIN on against off,
 * rounds alternating in one process (medians). The end-to-end comparison is
 * `bench/cpu-per-request.ts --builds dist@env:CHAT_ROOM_CHAIN=on,dist@env:CHAT_ROOM_CHAIN=off`;
 * on a loaded 2-core host its noise is larger than this difference, which is why it is isolated here.
 *
 *   node -r ./test/support/ts-register.js bench/room-chain.bench.ts [rounds, default 7] [writes per round, default 100000]
 */
const TEXT = 'benchmark write with a realistic length of a short agent status update';

function run(chain: 'on' | 'off', writes: number): number {
  const dir = makeTempDir('agent-chat-bench-chain');
  try {
    const files = new RingFileStore(dir.path);
    const projection = new RoomsProjection(
      loadConfig({ CHAT_ROOT: dir.path, CHAT_ROOM_CHAIN: chain }),
      files,
      new TailCache(1 << 20),
    );
    const at = Date.now() * 1000;
    for (let r = 0; r < 1000; r++)
      projection.apply({ type: 'room.created', room: `w${r}`, generation: 1, at });
    const events: RoomEvent[] = Array.from({ length: writes }, (_, n) => {
      const seq = Math.floor(n / 1000) + 1;
      const ts = new Date(at / 1000 + n).toISOString();
      return {
        type: 'message.appended',
        room: `w${n % 1000}`,
        seq,
        at: at + n,
        record: unsignedRecordLine(seq, ts, 'bench', `${TEXT} ${n}`),
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

function main(): void {
  const rounds = Number(process.argv[2] ?? '7');
  const writes = Number(process.argv[3] ?? '100000');
  run('on', writes / 10); // warm-up
  run('off', writes / 10);
  const on: number[] = [];
  const off: number[] = [];
  for (let round = 0; round < rounds; round++) {
    on.push(run('on', writes));
    off.push(run('off', writes));
  }
  const [mOn, mOff] = [median(on), median(off)];
  // The fastest round is the least disturbed by neighbours on a shared host: reported beside the median.
  const [minOn, minOff] = [Math.min(...on), Math.min(...off)];
  const fmt = (values: number[]) => values.map((v) => v.toFixed(2)).join(', ');
  process.stdout.write(
    `apply message.appended, 1,000 rooms: chain on ${mOn.toFixed(2)} µs (${fmt(on)}), off ${mOff.toFixed(2)} µs ` +
      `(${fmt(off)}); the chain adds ${(mOn - mOff).toFixed(2)} µs per write (fastest rounds: ` +
      `${minOn.toFixed(2)} against ${minOff.toFixed(2)}, +${(minOn - minOff).toFixed(2)} µs)\n`,
  );
}

main();

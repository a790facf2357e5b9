/**
 * Issue 27: stream bytes against the live state under a steady write load with reaping, on one service
 * node with CHAT_NATS_RETENTION=snapshot. Starts its own current nats-server (.tools/) on a port the
 * kernel picks; 127.0.0.1 only. Part of `npm run bench` (`--only stream-bytes`), or alone:
 *
 *   npm run build && node -r ./test/support/ts-register.js bench/stream-bytes.bench.ts \
 *     [--rate 200] [--seconds 240] [--sample 5] [--active 10] [--room-seconds 40] [--text 200] \
 *     [--ring-bytes 65536] [--snapshot-seconds 5] [--keep 3] [--checkpoint-seconds 1]
 *
 * Load: `rate` POSTs per second (paced, not closed-loop) for `seconds`, over a rotating set of rooms:
 * room k takes writes from k × room-seconds ÷ active to that plus room-seconds, so `active` rooms are
 * written at any moment, each then goes idle and is reaped CHAT_RETENTION_SECONDS=60 later (the
 * smallest the configuration allows: the real clock, no clock shift, so snapshot ages, checkpoint
 * cadence and the reaper all run on the time the stream's records carry). Each room receives
 * rate × room-seconds ÷ active texts of `text` bytes, several times its ring (`ring-bytes`).
 *
 * Live state: the newest local checkpoint file plus the ring bytes it names at the lengths it records,
 * read from CHAT_ROOT: exactly what a snapshot taken at that checkpoint holds and what a fresh node
 * restores, at most CHAT_CHECKPOINT_SECONDS old. Stream: `state.bytes` of stream info (what
 * JetStream accounts for the records it holds), its records and first sequence, and the bytes of
 * the stream's message blocks on disk (purged bytes are only freed when a block goes).
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { jetstreamManager, JetStreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { ChildServer } from './lib/child-server';
import { BENCH_ENV, BenchOptions, Row, Scenario, tempDataDir } from './lib/context';
import { median } from './lib/stats';
import { CheckpointStore, checkpointFileName } from '../src/projections/checkpoint-store';
import { snapshotBucket } from '../src/log/nats/nats-snapshot-store';
import { startSuiteNats, stopSuiteNats } from '../test/support/global-nats';
import { natsServerBinary } from '../test/support/nats-binary';

export interface StreamBytesOptions {
  readonly rate: number;
  readonly seconds: number;
  readonly sampleSeconds: number;
  readonly activeRooms: number;
  readonly roomSeconds: number;
  readonly textBytes: number;
  readonly ringBytes: number;
  readonly snapshotSeconds: number;
  readonly snapshotsKeep: number;
  readonly checkpointSeconds: number;
  /** `snapshot` (what is measured) or `keep` (the unbounded stream, for comparison). */
  readonly retention: 'snapshot' | 'keep';
}

export const STREAM_BYTES_DEFAULTS: StreamBytesOptions = {
  rate: 200,
  seconds: 240,
  sampleSeconds: 5,
  activeRooms: 10,
  roomSeconds: 40,
  textBytes: 200,
  ringBytes: 64 * 1024,
  snapshotSeconds: 5,
  snapshotsKeep: 3,
  checkpointSeconds: 1,
  retention: 'snapshot',
};

/** The reaper's idle time: CHAT_RETENTION_SECONDS' minimum (src/config/app-config.ts). */
const RETENTION_SECONDS = 60;
const MAX_IN_FLIGHT = 256;

export interface Sample {
  readonly t: number;
  readonly writes: number;
  readonly streamBytes: number;
  readonly records: number;
  readonly firstSeq: number;
  readonly lastSeq: number;
  readonly diskBytes: number;
  readonly liveBytes: number;
  readonly ringFiles: number;
  readonly snapshotStoreBytes: number;
  readonly ratio: number;
}

/** A line of the node's log: a snapshot published (value: ms), a purge (value: records), a reap (rooms). */
export interface NodeEvent {
  readonly at: number;
  readonly kind: 'snapshot' | 'purge' | 'reap';
  readonly offset: number;
  readonly value: number;
}

export interface StreamBytesResult {
  readonly samples: Sample[];
  readonly ok: number;
  readonly failed: number;
  readonly events: NodeEvent[];
  /** Samples from here on are past the first room's whole life (writes, idle time, reap). */
  readonly steadyFrom: number;
}

/** Runs the load and samples the stream and the live state every `sampleSeconds`. */
export async function measureStreamBytes(
  o: StreamBytesOptions,
  say: (line: string) => void,
): Promise<StreamBytesResult> {
  const nats = await startSuiteNats();
  const stream = `bench-bytes-${process.pid}`;
  const dir = tempDataDir('stream-bytes');
  const nc = await connect({ servers: [nats.url] });
  let server: ChildServer | undefined;
  try {
    const jsm = await jetstreamManager(nc);
    server = await ChildServer.service({
      ...BENCH_ENV,
      CHAT_ROOT: dir.path,
      CHAT_LOG_BACKEND: 'nats',
      CHAT_NATS_URL: nats.url,
      CHAT_NATS_STREAM: stream,
      CHAT_NATS_RETENTION: o.retention,
      CHAT_RING_BYTES: String(o.ringBytes),
      CHAT_CHECKPOINT_SECONDS: String(o.checkpointSeconds),
      CHAT_SNAPSHOT_SECONDS: String(o.snapshotSeconds),
      CHAT_SNAPSHOTS_KEEP: String(o.snapshotsKeep),
      CHAT_RETENTION_SECONDS: String(RETENTION_SECONDS),
      CHAT_REAP_EVERY_SECONDS: '1',
    });
    // What the node logs about snapshots, purges and reaps, with the time each line arrived.
    const events: NodeEvent[] = [];
    const started = performance.now();
    const elapsed = (): number => (performance.now() - started) / 1000;
    server.child.stdout!.on('data', (chunk: Buffer) => {
      const at = elapsed();
      const text = chunk.toString('utf8');
      for (const m of text.matchAll(
        /published snapshot at offset (\d+) [^(]*\(\d+ ring files, (\d+) ms\)/g,
      )) {
        events.push({ at, kind: 'snapshot', offset: Number(m[1]), value: Number(m[2]) });
      }
      for (const m of text.matchAll(/purged (\d+) record\(s\) below offset (\d+)/g)) {
        events.push({ at, kind: 'purge', offset: Number(m[2]), value: Number(m[1]) });
      }
      for (const m of text.matchAll(/reaped (\d+) idle room\(s\)/g)) {
        events.push({ at, kind: 'reap', offset: 0, value: Number(m[1]) });
      }
    });
    const blocks = join(nats.storeDir, 'jetstream', '$G', 'streams', stream, 'msgs');
    const checkpoints = new CheckpointStore(dir.path);
    const shift = o.roomSeconds / o.activeRooms;
    const text = 'x'.repeat(o.textBytes);
    const url = server.url;
    const load = { sent: 0, ok: 0, failed: 0, inFlight: 0 };
    const samples: Sample[] = [];
    const post = async (room: number): Promise<void> => {
      load.inFlight++;
      try {
        const response = await fetch(`${url}/r/bytes${room}`, {
          method: 'POST',
          body: JSON.stringify({ from: 'bench', text }),
          headers: { 'content-type': 'application/json' },
        });
        const body = await response.text();
        if (response.ok) load.ok++;
        else if (load.failed++ < 3) say(`POST /r/bytes${room} → ${response.status}: ${body.slice(0, 200)}`);
      } catch (error) {
        if (load.failed++ < 3) say(`POST /r/bytes${room} failed: ${(error as Error).message}`);
      } finally {
        load.inFlight--;
      }
    };
    const pacer = setInterval(() => {
      const t = elapsed();
      if (t >= o.seconds) return;
      const newest = Math.floor(t / shift);
      for (; load.sent < Math.floor(t * o.rate) && load.inFlight < MAX_IN_FLIGHT; load.sent++) {
        // The `active` newest rooms that exist by now, in turn.
        const room = newest - (load.sent % Math.min(o.activeRooms, newest + 1));
        void post(room);
      }
    }, 20);
    try {
      for (let next = 0; next <= o.seconds; next += o.sampleSeconds) {
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - elapsed()) * 1000));
        const sample = await takeSample(jsm, stream, blocks, checkpoints, elapsed(), load.ok);
        samples.push(sample);
        say(describe(sample));
      }
    } finally {
      clearInterval(pacer);
    }
    while (load.inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 50));
    return {
      samples,
      ok: load.ok,
      failed: load.failed,
      events,
      steadyFrom: o.roomSeconds + RETENTION_SECONDS + 2 * o.checkpointSeconds + o.snapshotSeconds,
    };
  } finally {
    await server?.stop();
    await nc.close();
    await stopSuiteNats(nats);
    dir.dispose();
  }
}

async function takeSample(
  jsm: JetStreamManager,
  stream: string,
  blocks: string,
  checkpoints: CheckpointStore,
  t: number,
  writes: number,
): Promise<Sample> {
  const { state } = await jsm.streams.info(stream);
  const snapshotStoreBytes = await jsm.streams
    .info(`OBJ_${snapshotBucket(stream)}`)
    .then((info) => info.state.bytes)
    .catch(() => 0);
  const live = liveState(checkpoints);
  return {
    t,
    writes,
    streamBytes: state.bytes,
    records: state.messages,
    firstSeq: state.first_seq,
    lastSeq: state.last_seq,
    diskBytes: filesBytes(blocks),
    liveBytes: live.bytes,
    ringFiles: live.ringFiles,
    snapshotStoreBytes,
    ratio: live.bytes > 0 ? state.bytes / live.bytes : Number.NaN,
  };
}

/** The newest checkpoint's file plus the ring bytes it names (a checkpoint may be replaced meanwhile). */
function liveState(checkpoints: CheckpointStore): { bytes: number; ringFiles: number } {
  for (let attempt = 0; attempt < 5; attempt++) {
    const header = checkpoints.headers()[0];
    if (header === undefined) return { bytes: 0, ringFiles: 0 };
    try {
      const file = statSync(join(checkpoints.dir, checkpointFileName(header.offset))).size;
      const rings = Object.values(header.files).reduce((sum, length) => sum + length, 0);
      return { bytes: file + rings, ringFiles: Object.keys(header.files).length };
    } catch {
      // garbage-collected between the listing and the stat: read the newer one
    }
  }
  throw new Error(`no stable checkpoint in ${checkpoints.dir}`);
}

function filesBytes(dir: string): number {
  try {
    return readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
  } catch {
    return 0;
  }
}

const kb = (bytes: number): string => (bytes / 1024).toFixed(0);

function describe(s: Sample): string {
  return (
    `t=${s.t.toFixed(0)} s writes=${s.writes} stream=${kb(s.streamBytes)} KiB (${s.records} records, ` +
    `first ${s.firstSeq}, last ${s.lastSeq}, blocks ${kb(s.diskBytes)} KiB) live=${kb(s.liveBytes)} KiB ` +
    `(${s.ringFiles} rings) snapshots=${kb(s.snapshotStoreBytes)} KiB ratio=${s.ratio.toFixed(2)}`
  );
}

/** The curve as a Markdown table (what docs/scaling.md quotes). */
export function curveTable(samples: readonly Sample[]): string {
  const lines = [
    '| t s | writes | stream KiB | records | first_seq | blocks on disk KiB | live KiB | rings | snapshot store KiB | stream ÷ live |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const s of samples) {
    lines.push(
      `| ${s.t.toFixed(0)} | ${s.writes} | ${kb(s.streamBytes)} | ${s.records} | ${s.firstSeq} | ` +
        `${kb(s.diskBytes)} | ${kb(s.liveBytes)} | ${s.ringFiles} | ${kb(s.snapshotStoreBytes)} | ${s.ratio.toFixed(2)} |`,
    );
  }
  return lines.join('\n');
}

/** How often the node published snapshots and purged, how long an upload took, how many rooms went. */
export function activity(events: readonly NodeEvent[]): string {
  const of = (kind: NodeEvent['kind']): NodeEvent[] => events.filter((e) => e.kind === kind);
  const snapshots = of('snapshot');
  const gaps = snapshots.slice(1).map((e, i) => e.at - snapshots[i].at);
  const uploads = snapshots.map((e) => e.value);
  const spread = (values: number[], digits: number): string =>
    values.length === 0
      ? 'n/a'
      : `median ${median(values).toFixed(digits)}, max ${Math.max(...values).toFixed(digits)}`;
  return (
    `${snapshots.length} snapshots (apart: ${spread(gaps, 1)} s; upload ${spread(uploads, 0)} ms), ` +
    `${of('purge').length} purges, ${of('reap').reduce((sum, e) => sum + e.value, 0)} rooms reaped`
  );
}

/** Max over the steady part, and the last sample: the figures the goal (≤ 2×) is judged on. */
export function summarize(result: StreamBytesResult): { max: number; final: number; steady: Sample[] } {
  const steady = result.samples.filter((s) => s.t >= result.steadyFrom && s.liveBytes > 0);
  const ratios = steady.map((s) => s.ratio);
  return {
    max: ratios.length > 0 ? Math.max(...ratios) : Number.NaN,
    final: result.samples.at(-1)?.ratio ?? Number.NaN,
    steady,
  };
}

export const streamBytesScenario: Scenario = {
  name: 'stream-bytes',
  async run(_options: BenchOptions): Promise<Row[]> {
    try {
      natsServerBinary();
    } catch (error) {
      // Last in `npm run bench`: a missing nats-server must not cost the rows measured before it.
      const note = (error as Error).message;
      return [{ scenario: 'stream bytes ÷ live state', target: 'service', goal: '≤ 2', met: false, note }];
    }
    const result = await measureStreamBytes(STREAM_BYTES_DEFAULTS, (line) =>
      process.stderr.write(`[bench] stream-bytes: ${line}\n`),
    );
    const { max, final, steady } = summarize(result);
    const note =
      `${steady.length} samples after ${result.steadyFrom} s, ${result.ok} writes (${result.failed} failed); ` +
      activity(result.events);
    return [
      {
        scenario: 'stream bytes ÷ live state, steady writes with reaping (max)',
        target: 'service',
        ratio: max,
        goal: '≤ 2, no write refused',
        // A run whose writes were refused did not measure the load it describes.
        met: max <= 2 && result.failed === 0,
        note,
      },
      {
        scenario: 'stream bytes ÷ live state (final)',
        target: 'service',
        ratio: final,
        goal: '≤ 2',
        met: final <= 2,
      },
    ];
  },
};

function arg(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
}

async function main(): Promise<void> {
  const d = STREAM_BYTES_DEFAULTS;
  const options: StreamBytesOptions = {
    rate: arg('rate', d.rate),
    seconds: arg('seconds', d.seconds),
    sampleSeconds: arg('sample', d.sampleSeconds),
    activeRooms: arg('active', d.activeRooms),
    roomSeconds: arg('room-seconds', d.roomSeconds),
    textBytes: arg('text', d.textBytes),
    ringBytes: arg('ring-bytes', d.ringBytes),
    snapshotSeconds: arg('snapshot-seconds', d.snapshotSeconds),
    snapshotsKeep: arg('keep', d.snapshotsKeep),
    checkpointSeconds: arg('checkpoint-seconds', d.checkpointSeconds),
    retention: process.argv.includes('--keep-history') ? 'keep' : 'snapshot',
  };
  const say = (line: string): void => console.log(`[stream-bytes] ${line}`);
  say(JSON.stringify(options));
  const result = await measureStreamBytes(options, say);
  const { max, final, steady } = summarize(result);
  console.log(`\n${curveTable(result.samples)}\n`);
  if (process.argv.includes('--events')) {
    for (const e of result.events) say(`  ${e.at.toFixed(1)} s ${e.kind} offset ${e.offset} (${e.value})`);
  }
  say(`${result.ok} writes acknowledged, ${result.failed} failed; ${activity(result.events)}`);
  say(
    `stream ÷ live: max ${max.toFixed(2)} over ${steady.length} samples from t=${result.steadyFrom} s, ` +
      `final ${final.toFixed(2)} (goal ≤ 2: ${max <= 2 && final <= 2 ? 'met' : 'NOT met'})`,
  );
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}

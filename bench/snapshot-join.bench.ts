/**
 * Issue 27: how long a fresh node takes to serve when it joins from a shared snapshot against a full
 * replay of the stream, in the same run, and the write p99 of a node taking snapshots against one that
 * takes none. Starts its own current nats-server (.tools/) on a port the kernel picks.
 *
 *   npm run build && node -r ./test/support/ts-register.js bench/snapshot-join.bench.ts \
 *     [--rooms 5000] [--messages 200] [--rounds 3] [--seconds 10] [--ring-bytes 10485760] \
 *     [--profile <dir>] [--timeline]
 *
 * History: `rooms` rooms created, then `messages` messages each (rooms × (messages + 1) events, 120-byte
 * texts), appended straight into the stream (retention `keep`, so a full replay stays possible). A
 * seeding node replays it and publishes the first snapshot. Join: a node from an empty CHAT_ROOT with
 * snapshots on (restores, replays the tail) against one with CHAT_SNAPSHOT_SECONDS=0 (replays every
 * record), alternating; spawn-to-listening time and the CPU each used until then, medians. Writes:
 * POSTs across the rooms, 32 connections, on a node publishing a snapshot after every checkpoint
 * (CHAT_CHECKPOINT_SECONDS=1) against a node on the same stream that takes none, alternating; p99
 * medians.
 *
 * `--profile <dir>`: the joining nodes run with `--cpu-prof` into `dir` (open in Chrome's DevTools).
 * `--timeline`: prints each join's start-up log lines with milliseconds since spawn (where the time goes).
 */
import { jetstreamManager } from '@nats-io/jetstream';
import { Objm } from '@nats-io/obj';
import { connect } from '@nats-io/transport-node';
import { ChildServer } from './lib/child-server';
import { BENCH_ENV, tempDataDir } from './lib/context';
import { generateLog } from './lib/generate-log';
import { load } from './lib/load';
import { cpuSeconds } from './lib/proc-stats';
import { median } from './lib/stats';
import { JetStreamEventLog } from '../src/log/nats/jetstream-event-log';
import { startSuiteNats, stopSuiteNats } from '../test/support/global-nats';

function arg(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
}

const say = (message: string): void => console.log(`[snapshot-join] ${message}`);

async function main(): Promise<void> {
  const rooms = arg('rooms', 5000);
  const messages = arg('messages', 200);
  const rounds = arg('rounds', 3);
  const seconds = arg('seconds', 10);
  // Every node of a stream must fold with the same ring size; smaller rings make the live state a
  // smaller share of the history (what a long-running service looks like).
  const ringBytes = arg('ring-bytes', 10 * 1024 * 1024);
  const profileAt = process.argv.indexOf('--profile');
  const profile = profileAt >= 0 ? process.argv[profileAt + 1] : undefined;
  const timeline = process.argv.includes('--timeline');
  const nats = await startSuiteNats();
  const stream = `bench-snap-${process.pid}`;
  const dirs: Array<{ dispose(): void }> = [];
  const servers: ChildServer[] = [];
  const nc = await connect({ servers: [nats.url] });
  const env = (label: string, extra: Record<string, string> = {}): Record<string, string> => {
    const dir = tempDataDir(label);
    dirs.push(dir);
    return {
      ...BENCH_ENV,
      CHAT_ROOT: dir.path,
      CHAT_LOG_BACKEND: 'nats',
      CHAT_NATS_URL: nats.url,
      CHAT_NATS_STREAM: stream,
      CHAT_NATS_RETENTION: 'keep',
      CHAT_RING_BYTES: String(ringBytes),
      ...extra,
    };
  };
  const start = async (label: string, extra: Record<string, string> = {}): Promise<ChildServer> => {
    const server = await ChildServer.service(env(label, extra));
    servers.push(server);
    return server;
  };
  const stop = async (server: ChildServer): Promise<void> => {
    servers.splice(servers.indexOf(server), 1);
    await server.stop();
  };
  try {
    const started = performance.now();
    const generated = await generateLog(
      '',
      rooms,
      messages,
      120,
      new JetStreamEventLog({
        servers: [nats.url],
        stream,
        replicas: 1,
        maxBytes: -1,
        duplicateWindowSeconds: 120,
        timeoutMs: 30_000,
        retention: 'keep',
      }),
    );
    const streamBytes = (await (await jetstreamManager(nc)).streams.info(stream)).state.bytes;
    say(
      `history: ${generated.events} events, ${rooms} rooms, stream ${(streamBytes / 1e6).toFixed(0)} MB ` +
        `(appended in ${((performance.now() - started) / 1000).toFixed(0)} s)`,
    );

    // The seeding node replays everything (the first full replay) and publishes the first snapshot.
    const seed = await start('seed', { CHAT_CHECKPOINT_SECONDS: '1', CHAT_SNAPSHOT_SECONDS: '1' });
    say(`seed node served after ${(seed.readyMs / 1000).toFixed(1)} s (full replay)`);
    const objects = await new Objm(nc).open(`${stream}-snapshots`);
    for (let waited = 0; (await objects.list()).length === 0; waited += 500) {
      if (waited > 600_000) throw new Error('no snapshot published');
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const snapshot = (await objects.list())[0];
    say(`snapshot published: ${snapshot.name}, ${(snapshot.size / 1e6).toFixed(1)} MB`);

    const joins: number[] = [];
    const replays: number[] = [];
    // CPU seconds each node used until it served: on this shared machine wall time swings with the
    // neighbours' load, CPU time much less.
    const cpu = { join: [] as number[], replay: [] as number[] };
    for (let round = 0; round < rounds; round++) {
      const replay = await start(`replay-${round}`, { CHAT_SNAPSHOT_SECONDS: '0' });
      replays.push(replay.readyMs);
      cpu.replay.push(cpuSeconds(replay.pid));
      await stop(replay);
      const spawned = Date.now();
      const join = await start(`join-${round}`, {
        CHAT_LOG_LEVEL: 'debug',
        ...(profile ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profile}` } : {}),
      });
      joins.push(join.readyMs);
      cpu.join.push(cpuSeconds(join.pid));
      await stop(join);
      const restored = /restored snapshot at offset \d+ [^"]*\((\d+) ring files, ([^)]*)\)/.exec(
        join.startupOutput,
      );
      const ready = /projections ready at offset \d+ \(checkpoint \d+, (\d+) replayed\)/.exec(
        join.startupOutput,
      );
      say(`  join: restore (${restored?.[2] ?? '?'}), then ${ready?.[1] ?? '?'} records replayed`);
      if (timeline) for (const line of startupTimeline(join.startupOutput, spawned)) say(`    ${line}`);
      say(
        `round ${round + 1}: join ${(join.readyMs / 1000).toFixed(1)} s (CPU ${cpu.join[round].toFixed(1)} s), ` +
          `full replay ${(replay.readyMs / 1000).toFixed(1)} s (CPU ${cpu.replay[round].toFixed(1)} s)`,
      );
    }
    const join = median(joins);
    const replay = median(replays);
    say(
      `JOIN median: from snapshot ${(join / 1000).toFixed(1)} s, full replay ${(replay / 1000).toFixed(1)} s, ` +
        `ratio ${(join / replay).toFixed(3)} (goal < 10 s and < 0.2); CPU until serving ` +
        `${median(cpu.join).toFixed(1)} s against ${median(cpu.replay).toFixed(1)} s`,
    );

    // Write p99: the seed node snapshots after every checkpoint (1 s); a second node takes none.
    const quiet = await start('quiet', { CHAT_SNAPSHOT_SECONDS: '0' });
    const names = Array.from({ length: rooms }, (_, r) => `gen${r}`);
    const p99 = { snapshotting: [] as number[], quiet: [] as number[] };
    for (let round = 0; round < rounds; round++) {
      const pair = [
        ['snapshotting', seed],
        ['quiet', quiet],
      ] as const;
      for (const [which, server] of round % 2 === 0 ? pair : [...pair].reverse()) {
        let n = 0;
        const result = await load({
          url: server.url,
          seconds,
          connections: 32,
          headers: { 'content-type': 'application/json' },
          fineLatency: true,
          requests: [
            {
              setupRequest: (request: Record<string, unknown>) => ({
                ...request,
                method: 'POST',
                path: `/r/${names[n % names.length]}`,
                body: JSON.stringify({ from: 'bench', text: `p99 ${which} ${round} ${n++}` }),
              }),
            },
          ] as never,
        });
        p99[which].push(result.p99Fine ?? result.p99);
        say(
          `round ${round + 1} ${which}: ${Math.round(result.rps)} req/s (${result.errors} errors), p99 ${(result.p99Fine ?? result.p99).toFixed(1)} ms`,
        );
      }
    }
    const snapshots = (await objects.list()).filter((info) => !info.deleted).length;
    const withSnap = median(p99.snapshotting);
    const without = median(p99.quiet);
    say(
      `WRITE p99 median: while snapshotting ${withSnap.toFixed(1)} ms, without ${without.toFixed(1)} ms, ` +
        `ratio ${(withSnap / without).toFixed(2)} (goal <= 2); ${snapshots} snapshot(s) kept in the store`,
    );
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    await nc.close();
    await stopSuiteNats(nats);
    for (const dir of dirs) dir.dispose();
  }
}

/** Each JSON log line of a start-up as `+<ms since spawn> <context>: <message>`. */
function startupTimeline(output: string, spawned: number): string[] {
  const lines: string[] = [];
  for (const text of output.split('\n')) {
    try {
      const line = JSON.parse(text) as { time?: string | number; context?: string; msg?: string };
      const at = typeof line.time === 'number' ? line.time : Date.parse(String(line.time));
      lines.push(`+${at - spawned} ms ${line.context ?? ''}: ${String(line.msg).slice(0, 160)}`);
    } catch {
      // not a log line (a warning of node's own)
    }
  }
  return lines;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

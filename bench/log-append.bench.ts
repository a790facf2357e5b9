/**
 * Group-commit throughput of the segmented event log: N concurrent appenders, each awaiting its own
 * append before issuing the next (like N request handlers), for a fixed time.
 *
 *   node -r ./test/support/ts-register.js bench/log-append.bench.ts \
 *     [--appenders 64] [--seconds 5] [--payload 200] [--fsync always|interval|none] [--dir PATH]
 *
 * Prints records/s, fdatasyncs/s, records per fdatasync and the ack latency p50/p99/max. Without
 * --dir it writes to a fresh directory under the OS temp dir (check that it is a real disk, not
 * tmpfs, or fdatasync costs nothing) and deletes it afterwards.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { FsyncPolicy } from '../src/log/file/group-commit';
import { SegmentedEventLog } from '../src/log/file/segmented-event-log';

interface BenchArgs {
  appenders: number;
  seconds: number;
  payload: number;
  fsync: FsyncPolicy;
  dir: string | undefined;
}

function parseArgs(argv: readonly string[]): BenchArgs {
  const value = (name: string): string | undefined => {
    const at = argv.indexOf(`--${name}`);
    return at >= 0 ? argv[at + 1] : undefined;
  };
  return {
    appenders: Number(value('appenders') ?? 64),
    seconds: Number(value('seconds') ?? 5),
    payload: Number(value('payload') ?? 200),
    fsync: (value('fsync') ?? 'always') as FsyncPolicy,
    dir: value('dir'),
  };
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const dir = args.dir ?? mkdtempSync(join(tmpdir(), 'log-append-bench-'));
  const log = new SegmentedEventLog({
    dir,
    fsync: args.fsync,
    logger: { log: () => undefined, warn: console.warn },
  });
  await log.open();

  const payload = Buffer.alloc(args.payload, 'x');
  const latenciesMs: number[] = [];
  const deadline = performance.now() + args.seconds * 1000;
  const appender = async (): Promise<void> => {
    while (performance.now() < deadline) {
      const started = performance.now();
      await log.append([payload]);
      latenciesMs.push(performance.now() - started);
    }
  };

  const started = performance.now();
  await Promise.all(Array.from({ length: args.appenders }, appender));
  const elapsedS = (performance.now() - started) / 1000;
  const stats = log.stats();
  await log.close();
  if (!args.dir) rmSync(dir, { recursive: true, force: true });

  latenciesMs.sort((a, b) => a - b);
  const row = (label: string, value: string) => console.log(`${label.padEnd(22)} ${value}`);
  row('appenders', String(args.appenders));
  row('fsync policy', args.fsync);
  row('payload bytes', String(args.payload));
  row('elapsed s', elapsedS.toFixed(2));
  row('records/s', (stats.records / elapsedS).toFixed(0));
  row('fdatasyncs/s', (stats.fsyncs / elapsedS).toFixed(0));
  row('records per fdatasync', stats.fsyncs > 0 ? (stats.records / stats.fsyncs).toFixed(1) : 'n/a');
  row('ack p50 ms', percentile(latenciesMs, 50).toFixed(3));
  row('ack p99 ms', percentile(latenciesMs, 99).toFixed(3));
  row('ack max ms', (latenciesMs[latenciesMs.length - 1] ?? NaN).toFixed(3));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

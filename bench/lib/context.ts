import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Knobs for a benchmark run: guards opened wide so the numbers measure the service, not its budgets. */
export const BENCH_ENV: Record<string, string> = {
  CHAT_RATE_READ: '1000000000',
  CHAT_RATE_WRITE: '1000000000',
  CHAT_RATE_ROOMS_PER_DAY: '1000000000',
  CHAT_DUPE_FILTER_SECONDS: '0',
  CHAT_MAX_WAITERS_TOTAL: '20000',
  CHAT_MAX_WAITERS_PER_IP: '20000',
  CHAT_MAX_ROOMS: '20000',
  CHAT_MAX_CONNECTIONS_PER_CLIENT: '100000', // the long-poll scenario holds 5,000 sockets from one address
  CHAT_LOG_LEVEL: 'info', // the harness waits for the 'listening on' line
};

export interface BenchOptions {
  readonly rounds: number;
  readonly seconds: number;
  readonly connections: number;
}

/** One row of the printed table. */
export interface Row {
  readonly scenario: string;
  readonly target: 'service' | 'baseline';
  readonly rps?: number;
  readonly p50?: number;
  readonly p99?: number;
  readonly cpu?: number;
  readonly peakRss?: number;
  /** service ÷ baseline, or the scenario's own figure of merit. */
  readonly ratio?: number;
  readonly goal?: string;
  readonly met?: boolean;
  readonly note?: string;
}

export interface Scenario {
  readonly name: string;
  run(options: BenchOptions): Promise<Row[]>;
}

/** A temporary data directory, removed by `dispose`. */
export function tempDataDir(label: string): { readonly path: string; dispose(): void } {
  const path = mkdtempSync(join(tmpdir(), `agent-chat-bench-${label}-`));
  return { path, dispose: () => rmSync(path, { recursive: true, force: true }) };
}

export function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

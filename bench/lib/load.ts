import { EventEmitter } from 'node:events';
import autocannon from 'autocannon';
import { percentile } from './stats';
import { skipBodyDecoding } from './undecoded-bodies';

skipBodyDecoding(); // the benchmarks never look at a response body: see undecoded-bodies.ts

export interface LoadResult {
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly ok: number;
  readonly errors: number;
  /** With `fineLatency`: p99 in ms at microsecond resolution (autocannon's own is whole ms). */
  readonly p99Fine?: number;
}

export interface LoadOptions {
  readonly url: string;
  readonly seconds: number;
  readonly connections: number;
  readonly requests?: autocannon.Request[];
  readonly method?: 'GET' | 'POST';
  readonly body?: string;
  readonly headers?: Record<string, string>;
  readonly fineLatency?: boolean;
}

/** One autocannon run on loopback, bounded in time; non-2xx answers count as errors. */
export async function load(options: LoadOptions): Promise<LoadResult> {
  const durations: number[] = [];
  // Without a callback autocannon returns its instance (an EventEmitter), which is also a promise.
  const run = autocannon({
    url: options.url,
    duration: options.seconds,
    connections: options.connections,
    pipelining: 1,
    // autocannon treats an explicit `undefined` as a value: pass only what is set
    ...(options.method && { method: options.method }),
    ...(options.body !== undefined && { body: options.body }),
    ...(options.headers && { headers: options.headers }),
    ...(options.requests && { requests: options.requests }),
  }) as Promise<autocannon.Result> & EventEmitter;
  if (options.fineLatency) {
    run.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => durations.push(ms));
  }
  const result = await run;
  const ok = result['2xx'];
  return {
    rps: ok / options.seconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok,
    errors: result.non2xx + result.errors + result.timeouts,
    ...(options.fineLatency && durations.length > 0 && { p99Fine: percentile(durations, 99) }),
  };
}

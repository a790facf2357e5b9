import { ChildServer } from './child-server';
import { BenchOptions, log, Row } from './context';
import { load, LoadOptions, LoadResult } from './load';
import { measure } from './proc-stats';
import { median } from './stats';

interface Measured extends LoadResult {
  readonly cpu: number;
  readonly peakRss: number;
}

async function once(server: ChildServer, options: LoadOptions): Promise<Measured> {
  const { result, cpu, peakRss } = await measure(server.pid, () => load(options));
  return { ...result, cpu, peakRss };
}

function summarise(runs: readonly Measured[]): Measured {
  return {
    rps: median(runs.map((r) => r.rps)),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    ok: runs.reduce((sum, r) => sum + r.ok, 0),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
    cpu: median(runs.map((r) => r.cpu)),
    peakRss: Math.max(...runs.map((r) => r.peakRss)),
  };
}

export interface Comparison {
  readonly scenario: string;
  readonly service: {
    readonly server: ChildServer;
    readonly load: Omit<LoadOptions, 'seconds' | 'connections'>;
  };
  readonly baseline: {
    readonly server: ChildServer;
    readonly load: Omit<LoadOptions, 'seconds' | 'connections'>;
  };
  /** Minimum service/baseline ratio the goal asks for (and any absolute floor on the service's rps). */
  readonly goalRatio?: number;
  readonly goalRps?: number;
  readonly connections?: number;
}

/** Seconds of unrecorded load on each target before the rounds: JIT, caches and setup garbage settle. */
const WARM_UP_SECONDS = 2;

/**
 * A warm-up on each target, then alternating rounds (baseline, service, baseline, service, …) so both see the same machine state;
 * medians of the rounds; the ratio is service ÷ baseline requests per second.
 */
export async function compare(c: Comparison, options: BenchOptions): Promise<Row[]> {
  const shared = { seconds: options.seconds, connections: c.connections ?? options.connections };
  const service: Measured[] = [];
  const baseline: Measured[] = [];
  const warmUp = { ...shared, seconds: Math.min(WARM_UP_SECONDS, options.seconds) };
  await load({ ...c.baseline.load, ...warmUp });
  await load({ ...c.service.load, ...warmUp });
  for (let round = 0; round < options.rounds; round++) {
    baseline.push(await once(c.baseline.server, { ...c.baseline.load, ...shared }));
    service.push(await once(c.service.server, { ...c.service.load, ...shared }));
    log(
      `${c.scenario} round ${round + 1}: service ${service[round].rps.toFixed(0)}/s, baseline ${baseline[round].rps.toFixed(0)}/s`,
    );
  }
  const s = summarise(service);
  const b = summarise(baseline);
  const ratio = s.rps / b.rps;
  const goals: string[] = [];
  let met = true;
  if (c.goalRatio !== undefined) {
    goals.push(`≥ ${(c.goalRatio * 100).toFixed(0)} % of baseline`);
    met &&= ratio >= c.goalRatio;
  }
  if (c.goalRps !== undefined) {
    goals.push(`≥ ${c.goalRps} req/s`);
    met &&= s.rps >= c.goalRps;
  }
  const errors = s.errors > 0 ? `${s.errors} non-2xx/errors` : undefined;
  const notes = [cpuCostNote(s, b), errors].filter((note) => note !== undefined);
  return [
    { scenario: c.scenario, target: 'baseline', ...b },
    {
      scenario: c.scenario,
      target: 'service',
      ...s,
      ratio,
      goal: goals.join(', ') || undefined,
      met: goals.length ? met : undefined,
      note: notes.join('; ') || undefined,
    },
  ];
}

/**
 * compare() where both sides are the service (two ways of asking it for the same thing): the
 * baseline row says which way it is, e.g. 'the service itself, uncompressed'.
 */
export async function compareWithItself(
  c: Comparison,
  options: BenchOptions,
  baselineNote: string,
): Promise<Row[]> {
  const rows = await compare(c, options);
  return rows.map((row) => (row.target === 'baseline' ? { ...row, note: baselineNote } : row));
}

/** Server CPU per successful request, in µs. */
function cpuMicrosPerRequest(m: Measured): number {
  return (m.cpu * 1e6) / m.rps;
}

/**
 * The CPU each request costs both servers, and baseline ÷ service: what the throughput ratio would
 * be if both were CPU-bound on a machine of their own. On a shared, busy machine req/s swing with the
 * neighbours' load (both servers then idle part of the time), while CPU per request barely moves, so
 * this is the steadier figure to compare runs by.
 */
function cpuCostNote(service: Measured, baseline: Measured): string | undefined {
  if (!(service.rps > 0 && baseline.rps > 0 && service.cpu > 0 && baseline.cpu > 0)) return undefined;
  const s = cpuMicrosPerRequest(service);
  const b = cpuMicrosPerRequest(baseline);
  return `CPU/req ${s.toFixed(1)} µs vs ${b.toFixed(1)} µs: cost ratio ${(b / s).toFixed(2)}`;
}

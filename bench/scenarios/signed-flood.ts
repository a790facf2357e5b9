import { SigningKey } from '../../src/identity/signing-key';
import { ChildServer } from '../lib/child-server';
import { BenchOptions, log, Row } from '../lib/context';
import { bodyBytes, inParallel, postJson } from '../lib/http-client';
import { load, LoadOptions, LoadResult } from '../lib/load';
import { PresignedBodies, presignedPerKey } from '../lib/presigned-bodies';
import { median } from '../lib/stats';
import { withServers } from '../lib/with-servers';

/**
 * Connections reading while the flood runs: few, so the read p99 shows waiting, not read contention.
 * The p99 is taken at microsecond resolution (LoadOptions.fineLatency): alone it is under 1 ms.
 */
const READ_CONNECTIONS = 4;
/** The flood's share of the presigning estimate (it shares the machine with the reads). */
const FLOOD_SHARE = 0.6;
const GOAL_CONFIGURATION = 'verify pool';
const READ_PATH = '/r/bench?limit=50&format=json';
const BASELINE_LABEL = 'bare Fastify, POST flood';
const underFlood = (label: string): string => `room read p99, under flood (${label})`;

/**
 * (4b) Room-read p99 (50 messages, JSON) alone, then while a signed flood saturates the service;
 * rounds alternate. Run three times: with the verify pool (the default), with CHAT_VERIFY_WORKERS=0
 * (verification on the event loop, as before the pool), and under an unsigned flood of the same
 * shape (what the write path itself costs the reads), so the pool's effect is read in one run.
 * Goal: with the pool, p99 under the flood ≤ 2 × the p99 alone. Last, bare Fastify under a flood of its
 * own cheapest POST, for scale: on this 2-core machine the flood's load generator and the server
 * share the cores, and any server's read p99 grows under a saturating flood. The last row divides
 * the pool's growth by bare Fastify's, so the flood's cost beyond that saturation reads off directly.
 */
export async function floodRows(
  keys: readonly SigningKey[],
  text: string,
  options: BenchOptions,
): Promise<Row[]> {
  const signed = (): Flood => ({ requests: floodBodies(keys, text, options).requests(keys), signed: true });
  const configurations: Array<[string, Record<string, string>, () => Flood]> = [
    [GOAL_CONFIGURATION, {}, signed],
    ['verify on event loop', { CHAT_VERIFY_WORKERS: '0' }, signed],
    // What the write path alone costs the reads: the same flood without signatures.
    ['unsigned flood', {}, () => ({ requests: unsignedRequests(text), signed: false })],
  ];
  const rows: Row[] = [];
  for (const [label, env, flood] of configurations) {
    rows.push(
      ...(await withServers('signed-flood', env, (service) =>
        floodRound(service, label, flood(), keys.length, options),
      )),
    );
  }
  rows.push(
    ...(await withServers('signed-flood', {}, (service, baseline) =>
      baselineFloodRound(service, baseline, keys.length, options),
    )),
  );
  return [...rows, growthAgainstBaseline(rows)];
}

/**
 * The goal configuration's p99 growth divided by bare Fastify's under its own flood, in the same run:
 * above 1, the service lets a flood slow its reads more than saturation alone does on this machine.
 */
function growthAgainstBaseline(rows: readonly Row[]): Row {
  const growth = (label: string) => rows.find((row) => row.scenario === underFlood(label))!.ratio!;
  const service = growth(GOAL_CONFIGURATION);
  const baseline = growth(BASELINE_LABEL);
  return {
    scenario: `read p99 growth, ${GOAL_CONFIGURATION} ÷ bare Fastify`,
    target: 'service',
    ratio: service / baseline,
    note: `${service.toFixed(2)}× against ${baseline.toFixed(2)}×: the flood's cost beyond saturating the machine`,
  };
}

interface Flood {
  readonly requests: Array<Record<string, unknown>>;
  readonly signed: boolean;
}

function unsignedRequests(text: string): Array<Record<string, unknown>> {
  let n = 0;
  const write = (request: Record<string, unknown>) => ({
    ...request,
    method: 'POST',
    path: `/r/signed${n % 16}`,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ from: 'bench', text: `${text} ${n++}` }),
  });
  return [{ setupRequest: write }];
}

/** What one flood measurement runs against: reads to time and the writes that flood them. */
interface FloodTarget {
  readonly target: 'service' | 'baseline';
  readonly label: string;
  readonly reads: { readonly url: string };
  readonly writes: Omit<LoadOptions, 'seconds' | 'connections'>;
  readonly kind: string;
}

async function floodRound(
  service: ChildServer,
  label: string,
  flood: Flood,
  connections: number,
  options: BenchOptions,
): Promise<Row[]> {
  await seedReadRoom(service);
  return measureFlood(
    {
      target: 'service',
      label,
      reads: { url: `${service.url}${READ_PATH}` },
      writes: { url: service.url, requests: flood.requests as never },
      kind: flood.signed ? 'signed' : 'unsigned',
    },
    connections, // one key per connection when signed
    options,
  );
}

/**
 * The same measurement against bare Fastify: its cached body of the read's size, flooded by its
 * cheapest JSON POST. No server answers reads as fast under a saturating flood as alone on a machine
 * whose two cores the load generator shares; this row shows how much of the service's ratio is that.
 */
async function baselineFloodRound(
  service: ChildServer,
  baseline: ChildServer,
  connections: number,
  options: BenchOptions,
): Promise<Row[]> {
  await seedReadRoom(service);
  const bytes = await bodyBytes(`${service.url}${READ_PATH}`);
  return measureFlood(
    {
      target: 'baseline',
      label: BASELINE_LABEL,
      reads: { url: `${baseline.url}/body?bytes=${bytes}&type=json` },
      writes: {
        url: `${baseline.url}/json`,
        method: 'POST',
        body: JSON.stringify({ from: 'bench', text: 'flood' }),
        headers: { 'content-type': 'application/json' },
      },
      kind: 'POST',
    },
    connections,
    options,
  );
}

async function seedReadRoom(service: ChildServer): Promise<void> {
  await inParallel(1000, 32, (i) =>
    postJson(`${service.url}/r/bench`, { from: `w${i % 7}`, text: `message ${i}` }),
  );
}

async function measureFlood(flood: FloodTarget, connections: number, options: BenchOptions): Promise<Row[]> {
  const reads = { ...flood.reads, connections: READ_CONNECTIONS, fineLatency: true };
  const writes = { ...flood.writes, connections };
  await load({ ...reads, seconds: 2 }); // warm-up
  const alone: LoadResult[] = [];
  const flooded: LoadResult[] = [];
  const floods: LoadResult[] = [];
  for (let round = 0; round < options.rounds; round++) {
    alone.push(await load({ ...reads, seconds: options.seconds }));
    const [read, flooding] = await Promise.all([
      load({ ...reads, seconds: options.seconds }),
      load({ ...writes, seconds: options.seconds }),
    ]);
    flooded.push(read);
    floods.push(flooding);
    log(
      `flood (${flood.label}) round ${round + 1}: read p99 ${alone[round].p99Fine?.toFixed(2)} → ${read.p99Fine?.toFixed(2)} ms, ${flooding.rps.toFixed(0)} ${flood.kind}/s`,
    );
  }
  const p99Alone = median(alone.map((r) => r.p99Fine!));
  const p99Flooded = median(flooded.map((r) => r.p99Fine!));
  const ratio = p99Flooded / p99Alone;
  return [
    {
      scenario: `room read p99, alone (${flood.label})`,
      target: flood.target,
      rps: median(alone.map((r) => r.rps)),
      p50: median(alone.map((r) => r.p50)),
      p99: p99Alone,
    },
    {
      scenario: underFlood(flood.label),
      target: flood.target,
      rps: median(flooded.map((r) => r.rps)),
      p50: median(flooded.map((r) => r.p50)),
      p99: p99Flooded,
      ratio,
      // The goal is the pool's; the other configurations are there to explain its figure.
      ...(flood.label === GOAL_CONFIGURATION && { goal: '≤ 2 × alone', met: ratio <= 2 }),
      note: `flood ${median(floods.map((r) => r.rps)).toFixed(0)} ${flood.kind} writes/s, ${READ_CONNECTIONS} read + ${connections} flood connections`,
    },
  ];
}

function floodBodies(keys: readonly SigningKey[], text: string, options: BenchOptions): PresignedBodies {
  const perKey = presignedPerKey(keys.length, options.rounds * options.seconds);
  return new PresignedBodies(keys, text, Math.ceil(perKey * FLOOD_SHARE));
}

import { Agent, request } from 'node:http';
import { ChildServer } from '../lib/child-server';
import { BENCH_ENV, BenchOptions, log, Row, Scenario, tempDataDir } from '../lib/context';
import { postJson } from '../lib/http-client';
import { rssBytes } from '../lib/proc-stats';
import { median, percentile } from '../lib/stats';

const WAITERS = 5000;

interface Held {
  /** Resolves with the time (ms, hrtime) the response completed. */
  readonly done: Promise<number>;
}

function hold(agent: Agent, url: string): Held {
  return {
    done: new Promise((resolve, reject) => {
      const req = request(url, { agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(Number(process.hrtime.bigint()) / 1e6));
      });
      req.on('error', reject);
      req.end();
    }),
  };
}

async function settle(pid: number): Promise<number> {
  let last = rssBytes(pid);
  for (let i = 0; i < 20; i++) {
    await new Promise((r) => setTimeout(r, 250));
    const now = rssBytes(pid);
    if (Math.abs(now - last) < 256 * 1024) return now;
    last = now;
  }
  return last;
}

interface Release {
  readonly perWaiterRss: number;
  readonly releaseMs: number;
  readonly p50: number;
  readonly p99: number;
}

/** Parks WAITERS requests on `holdUrl`, measures RSS per waiter, triggers, times every answer. */
async function releaseRound(
  server: ChildServer,
  holdUrl: string,
  trigger: () => Promise<unknown>,
): Promise<Release> {
  const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
  const before = await settle(server.pid);
  const held = Array.from({ length: WAITERS }, () => hold(agent, holdUrl));
  const after = await settle(server.pid);
  const t0 = Number(process.hrtime.bigint()) / 1e6;
  await trigger();
  const latencies = (await Promise.all(held.map((h) => h.done))).map((t) => t - t0);
  agent.destroy();
  return {
    perWaiterRss: (after - before) / WAITERS,
    releaseMs: Math.max(...latencies),
    p50: median(latencies),
    p99: percentile(latencies, 99),
  };
}

/**
 * (5) 5,000 concurrent long-polls on one room (slot limits raised), all released by one write: wake
 * latency p50/p99, RSS per waiter, and the time until the last answer against bare Fastify answering
 * 5,000 held requests at once. Goals: ≤ 16 KiB per waiter; release ≤ 1.5 × the baseline's.
 */
export const longPollScenario: Scenario = {
  name: 'long-poll',
  async run(options: BenchOptions): Promise<Row[]> {
    const data = tempDataDir('poll');
    const service = await ChildServer.service({ ...BENCH_ENV, CHAT_ROOT: data.path, CHAT_MAX_WAIT: '60' });
    const baseline = await ChildServer.baseline();
    try {
      const service_: Release[] = [];
      const baseline_: Release[] = [];
      for (let round = 0; round < options.rounds; round++) {
        const head = JSON.parse(
          await postJson(`${service.url}/r/poll?format=json`, { from: 'bench', text: `round ${round}` }),
        ).last_seq as number;
        baseline_.push(
          await releaseRound(baseline, `${baseline.url}/hold`, () => postJson(`${baseline.url}/release`, {})),
        );
        service_.push(
          await releaseRound(service, `${service.url}/r/poll?since=${head}&wait=60&format=json`, () =>
            postJson(`${service.url}/r/poll`, { from: 'bench', text: `wake ${round}` }),
          ),
        );
        log(
          `long-poll round ${round + 1}: service ${service_[round].releaseMs.toFixed(0)} ms, baseline ${baseline_[round].releaseMs.toFixed(0)} ms`,
        );
      }
      const s = (pick: (r: Release) => number): number => median(service_.map(pick));
      const b = (pick: (r: Release) => number): number => median(baseline_.map(pick));
      const ratio = s((r) => r.releaseMs) / b((r) => r.releaseMs);
      const perWaiter = s((r) => r.perWaiterRss);
      return [
        {
          scenario: `${WAITERS} long-polls released`,
          target: 'baseline',
          p50: b((r) => r.p50),
          p99: b((r) => r.p99),
          note: `all answered in ${b((r) => r.releaseMs).toFixed(0)} ms; ${(b((r) => r.perWaiterRss) / 1024).toFixed(1)} KiB/held request`,
        },
        {
          scenario: `${WAITERS} long-polls released`,
          target: 'service',
          p50: s((r) => r.p50),
          p99: s((r) => r.p99),
          ratio,
          goal: '≤ 1.5 × baseline release',
          met: ratio <= 1.5,
          note: `all answered in ${s((r) => r.releaseMs).toFixed(0)} ms`,
        },
        {
          scenario: 'RSS per long-poll waiter',
          target: 'service',
          ratio: perWaiter / 1024,
          goal: '≤ 16 KiB',
          met: perWaiter <= 16 * 1024,
          note: `${(perWaiter / 1024).toFixed(1)} KiB`,
        },
      ];
    } finally {
      await service.stop();
      await baseline.stop();
      data.dispose();
    }
  },
};

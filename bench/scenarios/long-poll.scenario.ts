import { ChildServer } from '../lib/child-server';
import { Agent } from 'node:http';
import { BenchOptions, log, Row, Scenario } from '../lib/context';
import { withServers } from '../lib/with-servers';
import { get, postJson } from '../lib/http-client';
import { hold, nowMs, settledRss as settle, within } from '../lib/held';
import { median, percentile } from '../lib/stats';

const WAITERS = 5000;

interface Release {
  readonly perWaiterRss: number;
  readonly releaseMs: number;
  readonly p50: number;
  readonly p99: number;
}

/**
 * Parks WAITERS requests on `holdUrl`, waits until every connection is up and `parked()` agrees,
 * measures RSS per waiter, triggers, and times every answer from the trigger.
 */
async function releaseRound(
  server: ChildServer,
  holdUrl: string,
  trigger: () => Promise<unknown>,
  parked: () => Promise<boolean>,
): Promise<Release> {
  const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
  const before = await settle(server.pid);
  const held = Array.from({ length: WAITERS }, () => hold(agent, holdUrl));
  await within(30_000, Promise.all(held.map((h) => h.connected)));
  for (let i = 0; i < 100 && !(await parked()); i++) await new Promise((r) => setTimeout(r, 100));
  const after = await settle(server.pid);
  const t0 = nowMs();
  await trigger();
  const latencies = (await within(30_000, Promise.all(held.map((h) => h.done)))).map((t) => t - t0);
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
    return withServers('poll', { CHAT_MAX_WAIT: '60' }, async (service, baseline) => {
      const service_: Release[] = [];
      const baseline_: Release[] = [];
      for (let round = 0; round < options.rounds; round++) {
        const head = JSON.parse(
          await postJson(`${service.url}/r/poll?format=json`, { from: 'bench', text: `round ${round}` }),
        ).last_seq as number;
        const baselineHeld = async (): Promise<boolean> =>
          (JSON.parse(await get(`${baseline.url}/held`)) as { held: number }).held >= WAITERS;
        baseline_.push(
          await releaseRound(
            baseline,
            `${baseline.url}/hold`,
            () => postJson(`${baseline.url}/release`, {}),
            baselineHeld,
          ),
        );
        // The service does not expose its parked count: every connection is up and its RSS has settled.
        service_.push(
          await releaseRound(
            service,
            `${service.url}/r/poll?since=${head}&wait=60&format=json`,
            () => postJson(`${service.url}/r/poll`, { from: 'bench', text: `wake ${round}` }),
            async () => true,
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
    });
  },
};

import { Agent, request } from 'node:http';
import { ChildServer } from '../lib/child-server';
import { BenchOptions, log, Row, Scenario } from '../lib/context';
import { hold, nowMs, settledRss, within } from '../lib/held';
import { postJson } from '../lib/http-client';
import { median, percentile } from '../lib/stats';
import { withService } from '../lib/with-servers';

const CLIENTS = 5000;

interface Delivery {
  /** (RSS with the clients parked − RSS before) ÷ clients. */
  readonly perClientRss: number;
  /** Time from the write to each client having it, ms. */
  readonly latencies: readonly number[];
}

/** One event stream that resolves `ready` once its first event arrived and `seen` once `marker` did. */
function openStream(agent: Agent, url: string, marker: string) {
  let onReady: () => void = () => undefined;
  let onSeen: (at: number) => void = () => undefined;
  const ready = new Promise<void>((resolve) => (onReady = resolve));
  const seen = new Promise<number>((resolve) => (onSeen = resolve));
  const req = request(url, { agent }, (res) => {
    let tail = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      tail = (tail + chunk).slice(-4096);
      if (tail.includes('event: ready')) onReady();
      if (tail.includes(marker)) onSeen(nowMs());
    });
  });
  req.on('error', () => undefined);
  req.end();
  return { ready, seen, close: () => req.destroy() };
}

async function longPollRound(service: ChildServer, round: number): Promise<Delivery> {
  const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
  const head = JSON.parse(
    await postJson(`${service.url}/r/fanout?format=json`, { from: 'bench', text: `poll round ${round}` }),
  ).last_seq as number;
  const before = await settledRss(service.pid);
  const held = Array.from({ length: CLIENTS }, () =>
    hold(agent, `${service.url}/r/fanout?since=${head}&wait=60&format=json`),
  );
  await within(60_000, Promise.all(held.map((h) => h.connected)));
  const parked = await settledRss(service.pid);
  const t0 = nowMs();
  await postJson(`${service.url}/r/fanout`, { from: 'bench', text: `poll wake ${round}` });
  const latencies = (await within(60_000, Promise.all(held.map((h) => h.done)))).map((t) => t - t0);
  agent.destroy();
  return { perClientRss: (parked - before) / CLIENTS, latencies };
}

async function streamRound(service: ChildServer, round: number): Promise<Delivery> {
  const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
  const marker = `stream wake ${round}`;
  const before = await settledRss(service.pid);
  const streams = Array.from({ length: CLIENTS }, () =>
    openStream(agent, `${service.url}/r/fanout/sse`, marker),
  );
  await within(60_000, Promise.all(streams.map((s) => s.ready)));
  const parked = await settledRss(service.pid);
  const t0 = nowMs();
  await postJson(`${service.url}/r/fanout`, { from: 'bench', text: marker });
  const latencies = (await within(60_000, Promise.all(streams.map((s) => s.seen)))).map((t) => t - t0);
  for (const stream of streams) stream.close();
  agent.destroy();
  await new Promise((r) => setTimeout(r, 1000)); // the server sees the streams go
  return { perClientRss: (parked - before) / CLIENTS, latencies };
}

/**
 * (8) 5,000 SSE subscribers on one room, one write delivered to all of them, against 5,000 long-polls
 * on the same room released by one write in the same run (rounds alternate). Goals (issue 28): ≤ 16
 * KiB RSS per subscriber; the streams' p99 delivery ≤ 1.5 × the long-polls' release time (the time
 * until the last long-poll answered).
 */
export const streamsScenario: Scenario = {
  name: 'streams',
  async run(options: BenchOptions): Promise<Row[]> {
    const env = { CHAT_MAX_WAIT: '60', CHAT_MAX_STREAMS_TOTAL: '20000', CHAT_MAX_STREAMS_PER_IP: '20000' };
    return withService('streams', env, async (service) => {
      const polls: Delivery[] = [];
      const streams: Delivery[] = [];
      for (let round = 0; round < options.rounds; round++) {
        polls.push(await longPollRound(service, round));
        streams.push(await streamRound(service, round));
        const release = Math.max(...polls[round].latencies);
        log(
          `streams round ${round + 1}: long-polls released in ${release.toFixed(0)} ms, streams p99 ` +
            `${percentile(streams[round].latencies, 99).toFixed(0)} ms`,
        );
      }
      const med = (rounds: Delivery[], pick: (d: Delivery) => number) => median(rounds.map(pick));
      const release = med(polls, (d) => Math.max(...d.latencies));
      const streamP99 = med(streams, (d) => percentile(d.latencies, 99));
      const perStream = med(streams, (d) => d.perClientRss);
      return [
        {
          scenario: `${CLIENTS} long-polls, one write`,
          target: 'service',
          p50: med(polls, (d) => median(d.latencies)),
          p99: med(polls, (d) => percentile(d.latencies, 99)),
          note: `all released in ${release.toFixed(0)} ms; ${(med(polls, (d) => d.perClientRss) / 1024).toFixed(1)} KiB/waiter`,
        },
        {
          scenario: `${CLIENTS} SSE streams, one write`,
          target: 'service',
          p50: med(streams, (d) => median(d.latencies)),
          p99: streamP99,
          ratio: streamP99 / release,
          goal: '≤ 1.5 × long-poll release',
          met: streamP99 <= 1.5 * release,
          note: `delivered to all in ${med(streams, (d) => Math.max(...d.latencies)).toFixed(0)} ms`,
        },
        {
          scenario: 'RSS per SSE subscriber',
          target: 'service',
          ratio: perStream / 1024,
          goal: '≤ 16 KiB',
          met: perStream <= 16 * 1024,
          note: `${(perStream / 1024).toFixed(1)} KiB`,
        },
      ];
    });
  },
};

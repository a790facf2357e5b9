import { Agent, request } from 'node:http';
import { ChildServer } from '../lib/child-server';
import { BenchOptions, log, Row, Scenario } from '../lib/context';
import { settledRss, within } from '../lib/held';
import { postJson } from '../lib/http-client';
import { cpuSeconds } from '../lib/proc-stats';
import { median } from '../lib/stats';
import { withService } from '../lib/with-servers';

const CLIENTS = 100;
const ROOMS = 32;
const WRITES = 64;
const rooms = Array.from({ length: ROOMS }, (_, i) => `watched${i}`);

interface Cost {
  /** Server CPU (user + system) per client for the whole delivery, µs. */
  readonly cpuPerClientUs: number;
  /** (RSS with every client parked − RSS before) ÷ clients. */
  readonly rssPerClient: number;
  readonly connections: number;
}

/** GET as JSON on `agent`; `stop()` abandons it. */
function getJson(agent: Agent, url: string, stops: Set<() => void>): Promise<Record<string, unknown> | null> {
  return new Promise((resolve) => {
    const req = request(url, { agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        stops.delete(stop);
        resolve(res.statusCode === 200 ? (JSON.parse(body) as Record<string, unknown>) : null);
      });
    });
    const stop = (): void => {
      req.destroy();
      resolve(null);
    };
    stops.add(stop);
    req.on('error', () => resolve(null));
    req.end();
  });
}

/** A client on /watch: one request parked over all the rooms, re-asked with the cursor it got back. */
async function watchClient(
  base: string,
  agent: Agent,
  cursor: string,
  seen: () => void,
  stops: Set<() => void>,
  done: () => boolean,
): Promise<void> {
  while (!done()) {
    const reply = await getJson(agent, `${base}/watch?rooms=${cursor}&wait=60&format=json`, stops);
    if (reply === null) return;
    for (let i = 0; i < (reply.count as number); i++) seen();
    cursor = reply.cursor as string;
  }
}

/** A client with one long-poll per room, each re-asked with its room's last_seq. */
async function pollClient(
  base: string,
  agent: Agent,
  heads: readonly number[],
  seen: () => void,
  stops: Set<() => void>,
  done: () => boolean,
): Promise<void> {
  await Promise.all(
    rooms.map(async (room, i) => {
      let since = heads[i];
      while (!done()) {
        const reply = await getJson(agent, `${base}/r/${room}?since=${since}&wait=60&format=json`, stops);
        if (reply === null) return;
        for (let k = 0; k < (reply.count as number); k++) seen();
        since = reply.last_seq as number;
      }
    }),
  );
}

async function round(service: ChildServer, mode: 'watch' | 'polls'): Promise<Cost> {
  const heads: number[] = [];
  for (const room of rooms) {
    heads.push(
      JSON.parse(await postJson(`${service.url}/r/${room}?format=json`, { from: 'bench', text: 'setup' }))
        .last_seq,
    );
  }
  const cursor = rooms.map((room, i) => `${room}:${heads[i]}`).join(',');
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
  const stops = new Set<() => void>();
  const before = await settledRss(service.pid);
  let delivered = 0;
  const perClient = new Array<number>(CLIENTS).fill(0);
  const done = (c: number) => () => perClient[c] >= WRITES;
  const clients = Array.from({ length: CLIENTS }, (_, c) => {
    const seen = (): void => {
      perClient[c]++;
      delivered++;
    };
    return mode === 'watch'
      ? watchClient(service.url, agent, cursor, seen, stops, done(c))
      : pollClient(service.url, agent, heads, seen, stops, done(c));
  });
  const expectedParked = mode === 'watch' ? CLIENTS : CLIENTS * ROOMS;
  for (let i = 0; i < 200 && stops.size < expectedParked; i++) await new Promise((r) => setTimeout(r, 50));
  const parked = await settledRss(service.pid);
  const cpuBefore = cpuSeconds(service.pid);
  for (let w = 0; w < WRITES; w++) {
    await postJson(`${service.url}/r/${rooms[w % ROOMS]}`, { from: 'bench', text: `write ${w}` });
    await new Promise((r) => setTimeout(r, 20));
  }
  for (let i = 0; i < 600 && delivered < CLIENTS * WRITES; i++) await new Promise((r) => setTimeout(r, 50));
  const cpu = cpuSeconds(service.pid) - cpuBefore;
  for (const stop of [...stops]) stop();
  await within(30_000, Promise.all(clients));
  agent.destroy();
  if (delivered !== CLIENTS * WRITES)
    throw new Error(`${mode}: ${delivered} of ${CLIENTS * WRITES} delivered`);
  return {
    cpuPerClientUs: (cpu / CLIENTS) * 1e6,
    rssPerClient: (parked - before) / CLIENTS,
    connections: expectedParked,
  };
}

/**
 * (9) A client following 32 rooms: one GET /watch over all of them against 32 long-polls, one per room
 * (100 clients each way, 64 writes spread over the rooms, every client receiving all of them). Server
 * CPU per client for the whole delivery and RSS per client while parked; rounds alternate.
 */
export const watchScenario: Scenario = {
  name: 'watch',
  async run(options: BenchOptions): Promise<Row[]> {
    return withService('watch', { CHAT_MAX_WAIT: '60' }, async (service) => {
      const watches: Cost[] = [];
      const polls: Cost[] = [];
      for (let r = 0; r < options.rounds; r++) {
        watches.push(await round(service, 'watch'));
        polls.push(await round(service, 'polls'));
        log(
          `watch round ${r + 1}: watch ${watches[r].cpuPerClientUs.toFixed(0)} µs/client, 32 long-polls ` +
            `${polls[r].cpuPerClientUs.toFixed(0)} µs/client`,
        );
      }
      const med = (costs: Cost[], pick: (c: Cost) => number) => median(costs.map(pick));
      const row = (label: string, costs: Cost[], ratio?: number): Row => ({
        scenario: `${label}, ${CLIENTS} clients × ${ROOMS} rooms`,
        target: 'service',
        ratio,
        note:
          `CPU ${med(costs, (c) => c.cpuPerClientUs).toFixed(0)} µs/client for ${WRITES} messages; ` +
          `RSS ${(med(costs, (c) => c.rssPerClient) / 1024).toFixed(1)} KiB/client parked; ` +
          `${costs[0].connections} connections`,
      });
      const cpuRatio = med(watches, (c) => c.cpuPerClientUs) / med(polls, (c) => c.cpuPerClientUs);
      return [row('32 long-polls per client', polls), row('one /watch per client', watches, cpuRatio)];
    });
  },
};

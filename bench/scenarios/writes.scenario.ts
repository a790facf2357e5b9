import { withServers } from '../lib/with-servers';
import { compare } from '../lib/compare';
import { BenchOptions, Row, Scenario } from '../lib/context';

const TEXT = 'benchmark write with a realistic length of a short agent status update';
const BODY = JSON.stringify({ from: 'bench', text: TEXT });

/** A request generator giving every write a unique text (the duplicate filter stays honest). */
function unique(
  make: (n: number) => { path: string; method: string; body?: string },
): Array<Record<string, unknown>> {
  let n = 0;
  return [{ setupRequest: (request: Record<string, unknown>) => ({ ...request, ...make(n++) }) }];
}

/**
 * (3) Durable unsigned writes with the default fsync policy (acknowledged after the fsync that covers
 * them): POST and GET say across 1,000 rooms, and POST into one hot room, against a bare-Fastify POST
 * that parses the same JSON body. Goals: ≥ 10,000 writes/s and ≥ 30 % of the baseline (one hot room: 25 %).
 */
export const writesScenario: Scenario = {
  name: 'writes',
  async run(options: BenchOptions): Promise<Row[]> {
    return withServers('writes', { CHAT_FSYNC: 'always' }, async (service, baseline) => {
      const baselineLoad = {
        url: `${baseline.url}/json`,
        method: 'POST' as const,
        body: BODY,
        headers: { 'content-type': 'application/json' },
      };
      // [scenario, requests, goal ratio]: issue 15 asks ≥ 0.30 across 1,000 rooms, ≥ 0.25 for one hot room.
      const cases: Array<[string, Array<Record<string, unknown>>, number]> = [
        [
          'POST write, 1,000 rooms',
          unique((n) => ({
            method: 'POST',
            path: `/r/w${n % 1000}`,
            body: JSON.stringify({ from: 'bench', text: `${TEXT} ${n}` }),
          })),
          0.3,
        ],
        [
          'GET say, 1,000 rooms',
          unique((n) => ({
            method: 'GET',
            path: `/r/s${n % 1000}/say/bench/${encodeURIComponent(`${TEXT} ${n}`)}`,
          })),
          0.3,
        ],
        [
          'POST write, one hot room',
          unique((n) => ({
            method: 'POST',
            path: '/r/hot',
            body: JSON.stringify({ from: 'bench', text: `${TEXT} ${n}` }),
          })),
          0.25,
        ],
      ];
      const rows: Row[] = [];
      for (const [scenario, requests, goalRatio] of cases) {
        rows.push(
          ...(await compare(
            {
              scenario,
              service: {
                server: service,
                load: {
                  url: service.url,
                  requests: requests as never,
                  headers: { 'content-type': 'application/json' },
                },
              },
              baseline: { server: baseline, load: baselineLoad },
              goalRatio,
              goalRps: 10_000,
              connections: 64,
            },
            options,
          )),
        );
      }
      return rows;
    });
  },
};

import { withServers } from '../lib/with-servers';
import { compare } from '../lib/compare';
import { BenchOptions, Row, Scenario } from '../lib/context';
import { bodyBytes, get, inParallel, postJson } from '../lib/http-client';

/**
 * (1) Room read of 50 messages (JSON and text) from a 1,000-message room, and (2) a note read, each
 * against bare Fastify serving a precomputed body of the same size. Goal: ≥ 60 % of the baseline.
 */
export const readsScenario: Scenario = {
  name: 'reads',
  async run(options: BenchOptions): Promise<Row[]> {
    return withServers('reads', {}, async (service, baseline) => {
      await inParallel(1000, 32, (i) =>
        postJson(`${service.url}/r/bench`, {
          from: `writer${i % 7}`,
          text: `message ${i} ${'lorem ipsum '.repeat(6)}`,
        }),
      );
      await get(`${service.url}/kv/bench/status/set/${encodeURIComponent('ready: '.repeat(30))}`);
      const rows: Row[] = [];
      const cases: Array<[string, string, 'json' | 'text']> = [
        ['room read 50 (JSON)', '/r/bench?limit=50&format=json', 'json'],
        ['room read 50 (text)', '/r/bench?limit=50', 'text'],
        ['note read', '/kv/bench/status', 'text'],
      ];
      for (const [scenario, path, type] of cases) {
        const bytes = await bodyBytes(`${service.url}${path}`);
        rows.push(
          ...(await compare(
            {
              scenario: `${scenario}, ${bytes} B`,
              service: { server: service, load: { url: `${service.url}${path}` } },
              baseline: {
                server: baseline,
                load: { url: `${baseline.url}/body?bytes=${bytes}&type=${type}` },
              },
              goalRatio: 0.6,
            },
            options,
          )),
        );
      }
      return rows;
    });
  },
};

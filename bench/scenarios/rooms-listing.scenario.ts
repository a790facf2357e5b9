import { withServers } from '../lib/with-servers';
import { compare } from '../lib/compare';
import { BenchOptions, Row, Scenario } from '../lib/context';
import { bodyBytes, inParallel, postJson } from '../lib/http-client';

const ROOMS = 5000;

/** (6) `/rooms` with 5,000 rooms at 32 connections, text and JSON. Goal: p99 under 5 ms. */
export const roomsListingScenario: Scenario = {
  name: 'rooms',
  async run(options: BenchOptions): Promise<Row[]> {
    return withServers('rooms', {}, async (service, baseline) => {
      await inParallel(ROOMS, 64, (i) =>
        postJson(`${service.url}/r/room${i}`, { from: `n${i % 13}`, text: `hello from room ${i}` }),
      );
      const rows: Row[] = [];
      for (const [label, path, type] of [
        ['text', '/rooms', 'text'],
        ['JSON', '/rooms?format=json', 'json'],
      ] as const) {
        const bytes = await bodyBytes(`${service.url}${path}`);
        const [b, s] = await compare(
          {
            scenario: `/rooms (${label}), ${ROOMS} rooms, ${bytes} B`,
            service: { server: service, load: { url: `${service.url}${path}` } },
            baseline: { server: baseline, load: { url: `${baseline.url}/body?bytes=${bytes}&type=${type}` } },
            connections: 32,
          },
          options,
        );
        rows.push(b, { ...s, goal: 'p99 < 5 ms', met: (s.p99 ?? Infinity) < 5 });
      }
      return rows;
    });
  },
};

import { ChildServer } from '../lib/child-server';
import { withServers } from '../lib/with-servers';
import { compare, compareWithItself } from '../lib/compare';
import { BenchOptions, Row, Scenario } from '../lib/context';
import { bodyBytes, encodedBytes, get, inParallel, postJson, sameBytes } from '../lib/http-client';
import { longTextReads } from './long-text-reads';

/**
 * (1) Room read of 50 messages (JSON and text) from a 1,000-message room, and (2) a note read, each
 * against bare Fastify serving the very bytes of the service's reply. Goal: ≥ 65 % of the baseline
 * (issue 15). (1b) The same reads in a room of 150-character messages, and text against JSON there
 * (long-text-reads.ts, issue 25).
 * (3) The same text read asking for brotli, then gzip, against the uncompressed read of the service
 * itself in the same run (issue 12). Goal: ≥ 90 % of the uncompressed rate — the encodings are made
 * once per room version, so a compressed read should cost about what a plain one does.
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
      const cases: Array<[string, string]> = [
        ['room read 50 (JSON)', '/r/bench?limit=50&format=json'],
        ['room read 50 (text)', '/r/bench?limit=50'],
        ['note read', '/kv/bench/status'],
      ];
      for (const [i, [scenario, path]] of cases.entries()) {
        const same = await sameBytes(`${service.url}${path}`, baseline.url, `read${i}`);
        rows.push(
          ...(await compare(
            {
              scenario: `${scenario}, ${same.bytes} B`,
              service: { server: service, load: { url: `${service.url}${path}` } },
              baseline: { server: baseline, load: { url: same.url } },
              goalRatio: 0.65,
            },
            options,
          )),
        );
      }
      rows.push(...(await longTextReads(service, baseline, options)));
      rows.push(...(await compressedReads(service, options)));
      return rows;
    });
  },
};

/** Row (3): compressed vs uncompressed reads of the same room, both served by the service. */
async function compressedReads(service: ChildServer, options: BenchOptions): Promise<Row[]> {
  const url = `${service.url}/r/bench?limit=50`;
  const plainBytes = await bodyBytes(url);
  const rows: Row[] = [];
  for (const coding of ['br', 'gzip']) {
    const wire = await encodedBytes(url, coding);
    if (wire.coding !== coding) throw new Error(`asked for ${coding}, the service answered ${wire.coding}`);
    rows.push(
      ...(await compareWithItself(
        {
          scenario: `room read 50 (text), ${coding} ${wire.bytes} B vs plain ${plainBytes} B`,
          service: { server: service, load: { url, headers: { 'accept-encoding': coding } } },
          baseline: { server: service, load: { url } },
          goalRatio: 0.9,
        },
        options,
        'the service itself, uncompressed',
      )),
    );
  }
  return rows;
}

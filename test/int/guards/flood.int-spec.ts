import { Agent, request } from 'node:http';
import { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { DuplicateFilter } from '../../../src/access/duplicate-filter';
import { RateBuckets } from '../../../src/access/rate-buckets.service';
import { RoomCreationBudget } from '../../../src/access/room-creation-budget';
import { WaitSlots } from '../../../src/access/wait-slots';
import { TestApp } from '../../support/test-app';

const LIMITS = {
  rateRead: 60,
  rateWrite: 20,
  rateRoomsPerDay: 5,
  rateMaxBuckets: 200,
  dupeMaxKeys: 64,
  clientIpHeader: 'x-client',
};
const FLOOD_REQUESTS = 4000;
const CONCURRENCY = 32;

/** A collectable heap: expose V8's gc to this test only, so heap figures are not allocation noise. */
function heapAfterGc(): number {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

describe('flood: one client far over its budget, on a real socket', () => {
  let t: TestApp;
  let port: number;
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  beforeAll(async () => {
    t = await TestApp.start(LIMITS);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.getHttpServer().address() as AddressInfo).port;
  });
  afterAll(async () => {
    agent.destroy();
    await t.close();
  });

  function get(path: string, client: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port, path, agent, headers: { 'x-client': client } },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end();
    });
  }

  /** Request `i` of the flood: the flooder's reads and writes, and fresh identities cycling through. */
  function floodRequest(i: number): Promise<number> {
    switch (i % 4) {
      case 0:
        return get('/r/flood-0', 'flooder');
      case 1:
        return get(
          `/r/flood-${i % 3}/say/f/${encodeURIComponent(`flood text number ${i} with padding`)}`,
          'flooder',
        );
      case 2:
        return get('/r/flood-1', `rotating-${i}`);
      default:
        return get(
          `/r/flood-${i % 3}/say/r/${encodeURIComponent(`a distinct sentence ${i} for the filter`)}`,
          `rotating-${i}`,
        );
    }
  }

  it('keeps serving a second client, answers the flooder 429, and keeps every table and the heap bounded', async () => {
    for (let room = 0; room < 3; room++)
      expect(await get(`/r/flood-${room}/say/setup/hello`, 'setup')).toBe(200);
    const statuses = new Map<string, number>();
    const tally = (lane: string, status: number): void => {
      const key = `${lane} ${status}`;
      statuses.set(key, (statuses.get(key) ?? 0) + 1);
    };
    const lanes = ['flooder read', 'flooder write', 'rotating read', 'rotating write'];
    const run = async (from: number, to: number, withGoodClient: boolean): Promise<void> => {
      for (let batch = from; batch < to; batch += CONCURRENCY) {
        const indexes = Array.from({ length: Math.min(CONCURRENCY, to - batch) }, (_, k) => batch + k);
        const replies = await Promise.all(indexes.map(floodRequest));
        replies.forEach((status, k) => tally(lanes[indexes[k] % 4], status));
        if (withGoodClient && (batch / CONCURRENCY) % 10 === 0) {
          // The second client stays well inside its own budget and must never notice the flood.
          tally('good read', await get('/r/flood-0', 'good'));
          if ((batch / CONCURRENCY) % 40 === 0)
            tally('good write', await get(`/r/flood-2/say/good/still%20here%20${batch}`, 'good'));
        }
      }
    };

    await run(0, 800, false); // warm up: JIT, buckets, filter keys, room tails
    const heapBefore = heapAfterGc();
    const started = Date.now();
    statuses.clear();
    await run(800, 800 + FLOOD_REQUESTS, true);
    const elapsedMs = Date.now() - started;
    const heapAfter = heapAfterGc();

    const count = (key: string): number => statuses.get(key) ?? 0;
    expect(count('good read 200')).toBeGreaterThan(5);
    expect(count('good write 200')).toBeGreaterThan(1);
    expect([...statuses.keys()].filter((k) => k.startsWith('good') && !k.endsWith(' 200'))).toEqual([]);
    expect(count('flooder read 429')).toBeGreaterThan(FLOOD_REQUESTS / 4 - 2 * LIMITS.rateRead);
    expect(count('flooder write 429')).toBeGreaterThan(FLOOD_REQUESTS / 4 - 2 * LIMITS.rateWrite);
    expect(count('rotating read 200')).toBe(FLOOD_REQUESTS / 4); // fresh identities have fresh buckets

    const buckets = t.get(RateBuckets);
    expect(buckets.size('read')).toBeLessThanOrEqual(LIMITS.rateMaxBuckets);
    expect(buckets.size('write')).toBeLessThanOrEqual(LIMITS.rateMaxBuckets);
    expect(t.get(RoomCreationBudget).size).toBeLessThanOrEqual(LIMITS.rateMaxBuckets);
    expect(t.get(DuplicateFilter).size).toBeLessThanOrEqual(LIMITS.dupeMaxKeys);
    expect(t.get(WaitSlots).inUse).toBe(0);
    expect(heapAfter - heapBefore).toBeLessThan(24 * 1024 * 1024);
    expect(elapsedMs).toBeLessThan(60_000);

    if (process.env.FLOOD_REPORT) {
      const mib = (bytes: number): string => (bytes / 1024 / 1024).toFixed(1);
      console.log(
        `flood: ${FLOOD_REQUESTS} requests in ${elapsedMs} ms; ${JSON.stringify(Object.fromEntries(statuses))}; ` +
          `read buckets ${buckets.size('read')}, write buckets ${buckets.size('write')}, ` +
          `duplicate keys ${t.get(DuplicateFilter).size}; heap ${mib(heapBefore)} → ${mib(heapAfter)} MiB`,
      );
    }
  }, 90_000);
});

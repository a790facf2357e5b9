import { ChildServer } from '../lib/child-server';
import { BENCH_ENV, BenchOptions, log, Row, Scenario, tempDataDir } from '../lib/context';
import { generateLog } from '../lib/generate-log';
import { get, inParallel } from '../lib/http-client';
import { rssBytes } from '../lib/proc-stats';

/**
 * (8) Resident memory with 5,000 rooms of full rings. Under the default caps (5 GiB of room bytes for
 * 5,120 rooms) a full ring settles at its 1 MiB floor, so each room gets ~1.1 MiB of records; the
 * service rebuilds them from the log, then every room is read once (loading its tail). Goal: < 1 GiB.
 * `BENCH_MEMORY_ROOMS` scales it down for a quick look.
 */
export const memoryScenario: Scenario = {
  name: 'memory',
  async run(_options: BenchOptions): Promise<Row[]> {
    const rooms = Number(process.env.BENCH_MEMORY_ROOMS ?? 5000);
    const data = tempDataDir('memory');
    try {
      const generated = await generateLog(data.path, rooms, 1100, 1000);
      log(`memory: generated ${generated.events} events (${(generated.bytes / 1e9).toFixed(1)} GB)`);
      const service = await ChildServer.service({ ...BENCH_ENV, CHAT_ROOT: data.path });
      try {
        const afterStart = rssBytes(service.pid);
        let peak = afterStart;
        await inParallel(rooms, 16, async (i) => {
          await get(`${service.url}/r/gen${i}?limit=200&format=json`);
          peak = Math.max(peak, rssBytes(service.pid));
        });
        const mib = (b: number): string => `${(b / 1024 / 1024).toFixed(0)} MiB`;
        return [
          {
            scenario: `${rooms} rooms of full rings (~${(generated.bytes / rooms / 1024 / 1024).toFixed(1)} MiB logged each)`,
            target: 'service',
            peakRss: peak,
            ratio: peak / 1024 / 1024 / 1024,
            goal: '< 1 GiB',
            met: peak < 1024 * 1024 * 1024,
            note: `RSS after start ${mib(afterStart)}, peak while reading every room ${mib(peak)}; start took ${(service.readyMs / 1000).toFixed(0)} s`,
          },
        ];
      } finally {
        await service.stop();
      }
    } finally {
      data.dispose();
    }
  },
};

import { ChildServer } from '../lib/child-server';
import { BENCH_ENV, BenchOptions, log, Row, Scenario, tempDataDir } from '../lib/context';
import { generateLog } from '../lib/generate-log';
import { inParallel, postJson } from '../lib/http-client';

/**
 * (7) Time from process start to ready (listening, projections rebuilt) with 1 M logged events:
 * cold (no checkpoint: the whole log is replayed), after a graceful restart (checkpoint at shutdown),
 * and after a kill -9 with 20,000 writes since the last checkpoint. Goal: restart under 5 s.
 */
export const restartScenario: Scenario = {
  name: 'restart',
  async run(_options: BenchOptions): Promise<Row[]> {
    const data = tempDataDir('restart');
    const env = { ...BENCH_ENV, CHAT_ROOT: data.path, CHAT_CHECKPOINT_SECONDS: '3600' };
    try {
      const generated = await generateLog(data.path, 1000, 1000, 120);
      log(`restart: generated ${generated.events} events (${(generated.bytes / 1e6).toFixed(0)} MB)`);
      const cold = await ChildServer.service(env);
      await cold.stop('SIGTERM');
      const warm = await ChildServer.service(env);
      await inParallel(20_000, 64, (i) =>
        postJson(`${warm.url}/r/gen${i % 1000}`, { from: 'late', text: `late write ${i}` }),
      );
      await warm.stop('SIGKILL');
      const crashed = await ChildServer.service(env);
      await crashed.stop();
      const note = `${generated.events} events`;
      return [
        {
          scenario: 'start, cold: full replay of 1 M events',
          target: 'service',
          ratio: cold.readyMs / 1000,
          note: `${note}; seconds to ready`,
        },
        {
          scenario: 'restart after graceful stop',
          target: 'service',
          ratio: warm.readyMs / 1000,
          goal: '< 5 s',
          met: warm.readyMs < 5000,
          note: 'seconds to ready',
        },
        {
          scenario: 'restart after kill -9 (+20k events)',
          target: 'service',
          ratio: crashed.readyMs / 1000,
          goal: '< 5 s',
          met: crashed.readyMs < 5000,
          note: 'seconds to ready',
        },
      ];
    } finally {
      data.dispose();
    }
  },
};

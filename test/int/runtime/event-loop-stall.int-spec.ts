import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EventLoopWatch } from '../../../src/runtime/event-loop-watch';
import { makeTempDir } from '../../support/temp-dir';
import { TestApp } from '../../support/test-app';

/** Blocks this thread (the event loop of the test and of an in-process app) for `ms`. */
function spin(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // a loop that never yields, like the resync spin of issue 24 item 2
  }
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the event-loop stall detector', () => {
  const dir = makeTempDir('stall-watch');
  afterAll(() => dir.remove());

  it('given a blocked loop, then the watcher thread writes its error line while the loop is still blocked', async () => {
    const file = join(dir.path, 'lines.log');
    const fd = openSync(file, 'w');
    const watch = new EventLoopWatch({ thresholdMs: 200, fd });
    watch.start();
    try {
      await settle(100); // the worker is up and has seen a beat
      const blockedAt = Date.now();
      spin(2000);
      const resumedAt = Date.now();
      await settle(200); // the worker sees the beat again and measures the stall
      const lines = readFileSync(file, 'utf8')
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as { level: string; time: string; msg: string });
      const error = lines.find((line) => line.level === 'error');
      expect(error?.msg).toMatch(/^event loop blocked for \d+\.\d s \(CHAT_EVENT_LOOP_STALL_MS=200\)/);
      const writtenAt = Date.parse(error!.time);
      // The worker counts from the last beat it saw, which may precede the spin by a beat period or a
      // late timer on a loaded machine: written during the block is the bound that holds.
      expect(writtenAt).toBeGreaterThan(blockedAt);
      expect(writtenAt).toBeLessThan(resumedAt);
      expect(lines.some((line) => line.level === 'warn' && /running again after/.test(line.msg))).toBe(true);
      expect(watch.stalls).toBe(1);
      expect(watch.recent()?.ms).toBeGreaterThanOrEqual(1000);
    } finally {
      await watch.stop();
      closeSync(fd);
    }
  });

  it('given a loop that keeps turning, then nothing is reported', async () => {
    // A threshold well above what a loaded test machine's scheduler delays a turn by.
    const watch = new EventLoopWatch({ thresholdMs: 1500, fd: -1 });
    watch.start();
    try {
      for (let i = 0; i < 10; i++) await settle(50);
      expect(watch.stalls).toBe(0);
      expect(watch.recent()).toBeUndefined();
    } finally {
      await watch.stop();
    }
  });

  it('given a stall in the service, then /healthz answers 503 naming it, and /readyz too', async () => {
    const app = await TestApp.start({ eventLoopStallMs: 200 });
    try {
      expect((await app.getPath('/healthz')).status).toBe(200);
      spin(1000);
      const health = await app.getPath('/healthz');
      expect(health.status).toBe(503);
      expect(health.body).toMatch(/event loop was blocked for \d+\.\d s \(CHAT_EVENT_LOOP_STALL_MS 200\)/);
      expect((await app.getPath('/readyz')).status).toBe(503);
    } finally {
      await app.close();
    }
  });
});

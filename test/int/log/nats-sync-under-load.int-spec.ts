import { AppendResult } from '../../../src/log/event-log';
import { JetStreamEventLog } from '../../../src/log/nats/jetstream-event-log';
import { deleteStream, natsLogOptions, uniqueStreamName } from '../../support/nats-stream';

/**
 * A checkpoint calls the log's sync() before it is written (checkpoint.service.ts). On the nats
 * backend it used to wait until no append was queued or in flight at all, which a steady write load
 * rarely allows: checkpoints, and the shared snapshots and purges that follow them, were seconds to
 * tens of seconds late (bench/stream-bytes.bench.ts, issue 27). Records a node applied were
 * delivered by its tail from the stream, so they are stored: sync() has nothing to wait for.
 */
describe('JetStreamEventLog.sync under a steady append load (real nats-server)', () => {
  const stream = uniqueStreamName('sync-load');
  const log = new JetStreamEventLog(natsLogOptions(stream));
  afterAll(async () => {
    await log.close();
    await deleteStream(stream);
  });

  it('resolves while appends keep arriving, without waiting for the pipeline to go idle', async () => {
    await log.open();
    const payload = Buffer.from('{"type":"bench"}');
    const appends: Array<Promise<AppendResult>> = [];
    // Appends every millisecond, never awaited: there is always a batch in flight and one queued.
    const pump = setInterval(() => {
      for (let i = 0; i < 5; i++) appends.push(log.append([payload]));
    }, 1);
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const started = performance.now();
      let giveUp: NodeJS.Timeout | undefined;
      const synced = await Promise.race([
        log.sync().then(() => performance.now() - started),
        new Promise<null>((resolve) => (giveUp = setTimeout(() => resolve(null), 3000))),
      ]);
      clearTimeout(giveUp);
      expect(synced).not.toBeNull();
      expect(synced!).toBeLessThan(1000);
    } finally {
      clearInterval(pump);
    }
    // Every append was stored, each at an offset of its own, after the sync as before it.
    const results = await Promise.all(appends);
    expect(new Set(results.map((r) => r.first)).size).toBe(appends.length);
  }, 30_000);
});

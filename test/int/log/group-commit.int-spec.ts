import { setTimeout as sleep } from 'node:timers/promises';
import { SegmentedEventLog } from '../../../src/log/file/segmented-event-log';
import { makeTempDir } from '../../support/temp-dir';
import { FaultyFiles, openLog, payloads, readAll } from './log-test-kit';

describe('group commit and fsync policies (real files, real fdatasync)', () => {
  let dir: ReturnType<typeof makeTempDir>;
  const logs: SegmentedEventLog[] = [];

  const open = async (options: Parameters<typeof openLog>[1]) => {
    const opened = await openLog(dir.path, options);
    logs.push(opened.log);
    return opened.log;
  };

  beforeEach(() => {
    dir = makeTempDir('event-log-commit');
  });

  afterEach(async () => {
    for (const log of logs.splice(0)) await log.close().catch(() => undefined);
    dir.remove();
  });

  it('given fsync always, when 200 appends race, then they share far fewer fdatasyncs than appends', async () => {
    const log = await open({ fsync: 'always' });
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => log.append(payloads(`m${i}`))));
    expect(results.map((r) => r.first)).toEqual(Array.from({ length: 200 }, (_, i) => i));
    const stats = log.stats();
    expect(stats).toMatchObject({ appends: 200, records: 200 });
    expect(stats.fsyncs).toBeLessThan(200);
    expect(stats.fsyncs).toBe(stats.batches); // one write, one fdatasync per batch
    expect((await readAll(log)).length).toBe(200);
  });

  it('given a flush in flight, then every append arriving meanwhile goes out in the next single batch', async () => {
    const log = await open({ fsync: 'always' });
    const first = log.append(payloads('first'));
    await sleep(0); // the first batch's write or fdatasync is now running
    const rest = Array.from({ length: 50 }, (_, i) => log.append(payloads(`later${i}`)));
    await Promise.all([first, ...rest]);
    expect(log.stats()).toMatchObject({ appends: 51, batches: 2, fsyncs: 2 });
  });

  it('given fsync always, then no append resolves before an fdatasync that follows its write', async () => {
    const files = new FaultyFiles();
    const log = await open({ fsync: 'always', openFile: files.open });
    const syncsAtResolve: number[] = [];
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        log.append(payloads(`x${i}`)).then(() => syncsAtResolve.push(log.stats().fsyncs)),
      ),
    );
    expect(Math.min(...syncsAtResolve)).toBeGreaterThanOrEqual(1);
    expect(files.datasyncCalls).toBe(log.stats().fsyncs);
  });

  it('given fsync none, then appends are acknowledged without any fdatasync until close', async () => {
    const log = await open({ fsync: 'none' });
    for (let i = 0; i < 10; i++) await log.append(payloads(`n${i}`));
    expect(log.stats()).toMatchObject({ appends: 10, fsyncs: 0 });
    await log.close();
    expect(log.stats().fsyncs).toBe(1);
  });

  it('given fsync interval, then acks do not wait for fdatasync and a timer syncs only dirty data', async () => {
    const log = await open({ fsync: 'interval', fsyncIntervalMs: 20 });
    await log.append(payloads('quick'));
    expect(log.stats().fsyncs).toBe(0);
    await sleep(120);
    const afterTick = log.stats().fsyncs;
    expect(afterTick).toBe(1); // one sync for the one dirty write, none for idle ticks
    await log.append(payloads('again'));
    await sleep(120);
    expect(log.stats().fsyncs).toBe(2);
  });

  it('given fsync interval, then a long interval still lets close sync what is pending', async () => {
    const log = await open({ fsync: 'interval', fsyncIntervalMs: 60_000 });
    await log.append(payloads('pending'));
    await log.close();
    expect(log.stats().fsyncs).toBe(1);
  });

  it('counts written frame bytes', async () => {
    const log = await open({});
    await log.append(payloads('abc', 'de'));
    expect(log.stats()).toMatchObject({ bytes: 8 + 3 + 8 + 2, segments: 1 });
  });
});

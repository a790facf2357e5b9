import { setTimeout as sleep } from 'node:timers/promises';
import { LogUnavailableError } from '../../../src/log/log.errors';
import { SegmentedEventLog } from '../../../src/log/file/segmented-event-log';
import { makeTempDir } from '../../support/temp-dir';
import { FaultyFiles, openLog, payloads, readAll, texts } from './log-test-kit';

/**
 * I/O errors come from real segment files whose handle is switched to fail (FaultyFiles): the log
 * must refuse every later append, even once the "disk" works again, because a retried fsync can
 * report success for data the kernel already dropped.
 */
describe('a failed write or fdatasync poisons the log', () => {
  let dir: ReturnType<typeof makeTempDir>;
  let files: FaultyFiles;
  const logs: SegmentedEventLog[] = [];

  const open = async (options: Parameters<typeof openLog>[1] = {}) => {
    const opened = await openLog(dir.path, { openFile: files.open, ...options });
    logs.push(opened.log);
    return opened;
  };

  beforeEach(() => {
    dir = makeTempDir('event-log-poison');
    files = new FaultyFiles();
  });

  afterEach(async () => {
    for (const log of logs.splice(0)) await log.close().catch(() => undefined);
    dir.remove();
  });

  it('given fdatasync fails under always, then that append, the queued ones and all later ones reject', async () => {
    const { log, sink } = await open({ fsync: 'always' });
    await log.append(payloads('durable'));

    files.failDatasyncs = true;
    // Each append is observed as soon as it is made: it may reject while the test still sleeps.
    const failing = Promise.allSettled([log.append(payloads('doomed'))]);
    await sleep(0);
    const queued = Promise.allSettled([log.append(payloads('queued-1')), log.append(payloads('queued-2'))]);
    const outcomes = [...(await failing), ...(await queued)];
    for (const outcome of outcomes) {
      expect(outcome.status).toBe('rejected');
      expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(LogUnavailableError);
    }

    files.failDatasyncs = false; // the disk "recovers": the log must still refuse
    await expect(log.append(payloads('after'))).rejects.toThrow(/not accepting writes: poisoned/);
    expect(log.committedHead()).toBe(1);
    expect(texts(await readAll(log))).toEqual(['durable']);
    expect(sink.warnings.join('\n')).toMatch(/poisoned.*EIO/);

    await log.close(); // still releases the descriptor
    const { log: restarted } = await open({ openFile: undefined });
    // The failed write reached the page cache, so it may come back: unacknowledged, not promised.
    expect(texts(await readAll(restarted))[0]).toBe('durable');
    expect((await restarted.append(payloads('fresh'))).first).toBe(restarted.head() - 1);
  });

  it('given a failing write under none, then the log refuses appends from then on', async () => {
    const { log } = await open({ fsync: 'none' });
    await log.append(payloads('ok'));
    files.failWrites = true;
    await expect(log.append(payloads('doomed'))).rejects.toBeInstanceOf(LogUnavailableError);
    files.failWrites = false;
    await expect(log.append(payloads('later'))).rejects.toBeInstanceOf(LogUnavailableError);
    expect(log.committedHead()).toBe(1);
  });

  it('given the background fdatasync fails under interval, then later appends reject', async () => {
    const { log } = await open({ fsync: 'interval', fsyncIntervalMs: 10 });
    files.failDatasyncs = true;
    await log.append(payloads('acknowledged before the sync'));
    await sleep(100);
    await expect(log.append(payloads('later'))).rejects.toBeInstanceOf(LogUnavailableError);
  });

  it('given a roll whose seal fails, then the append that triggered it rejects', async () => {
    const { log } = await open({ fsync: 'none', segmentBytes: 30 });
    await log.append(payloads('0123456789')); // 18 bytes: the next one must roll
    files.failDatasyncs = true;
    await expect(log.append(payloads('0123456789'))).rejects.toBeInstanceOf(LogUnavailableError);
    await expect(log.append(payloads('x'))).rejects.toBeInstanceOf(LogUnavailableError);
  });

  it('given the final fdatasync fails, then close rejects with LogUnavailableError', async () => {
    const { log } = await open({ fsync: 'none' });
    await log.append(payloads('unsynced'));
    files.failDatasyncs = true;
    await expect(log.close()).rejects.toBeInstanceOf(LogUnavailableError);
  });
});

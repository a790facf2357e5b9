import { statSync } from 'node:fs';
import { join } from 'node:path';
import { SegmentedEventLog } from '../../../src/log/file/segmented-event-log';
import { makeTempDir } from '../../support/temp-dir';
import { openLog, readAll, segmentFiles, texts } from './log-test-kit';

// 40-byte payloads make 48-byte frames: a 200-byte segment holds 4 of them.
const SEGMENT_BYTES = 200;
const record = (i: number): Buffer => Buffer.from(`record-${String(i).padStart(33, '0')}`);

describe('segment rolling and retention (real files)', () => {
  let dir: ReturnType<typeof makeTempDir>;
  const logs: SegmentedEventLog[] = [];

  const open = async (options = {}) => {
    const opened = await openLog(dir.path, { segmentBytes: SEGMENT_BYTES, ...options });
    logs.push(opened.log);
    return opened;
  };

  beforeEach(() => {
    dir = makeTempDir('event-log-roll');
  });

  afterEach(async () => {
    for (const log of logs.splice(0)) await log.close().catch(() => undefined);
    dir.remove();
  });

  it('given many records, then segments roll by size and are named by base offset', async () => {
    const { log } = await open();
    for (let i = 0; i < 30; i++) await log.append([record(i)]);

    const files = segmentFiles(dir.path);
    expect(files.slice(0, 3)).toEqual([
      '00000000000000000000.log',
      '00000000000000000004.log',
      '00000000000000000008.log',
    ]);
    expect(files).toHaveLength(8); // 7 full segments of 4 records, then 2 records in the active one
    for (const name of files) expect(statSync(join(dir.path, name)).size).toBeLessThanOrEqual(SEGMENT_BYTES);
    expect(log.stats().segments).toBe(8);
  });

  it('given a batch that straddles the limit, then it is split at append boundaries across a roll', async () => {
    const { log } = await open();
    await Promise.all(Array.from({ length: 10 }, (_, i) => log.append([record(i)])));
    expect(segmentFiles(dir.path)).toEqual([
      '00000000000000000000.log',
      '00000000000000000004.log',
      '00000000000000000008.log',
    ]);
    expect(log.stats()).toMatchObject({ appends: 10, batches: 3 });
  });

  it('given one append bigger than a segment, then it gets a segment of its own', async () => {
    const { log } = await open();
    await log.append([record(0)]);
    await log.append(Array.from({ length: 6 }, (_, i) => record(100 + i)));
    await log.append([record(1)]);
    expect(segmentFiles(dir.path)).toEqual([
      '00000000000000000000.log',
      '00000000000000000001.log',
      '00000000000000000007.log',
    ]);
    expect(texts(await readAll(log, 6))).toEqual([record(105), record(1)].map(String));
  });

  it('when reading from any offset, then records come back in order across segments', async () => {
    const { log } = await open();
    await log.append(Array.from({ length: 3 }, (_, i) => record(i)));
    for (let i = 3; i < 23; i++) await log.append([record(i)]);

    for (const from of [0, 3, 4, 5, 11, 22]) {
      const records = await readAll(log, from);
      expect(records.map((r) => r.offset)).toEqual(Array.from({ length: 23 - from }, (_, k) => from + k));
      expect(texts(records)).toEqual(records.map((r) => String(record(r.offset))));
    }
    const window: number[] = [];
    for await (const r of log.read(6, { until: 13 })) window.push(r.offset);
    expect(window).toEqual([6, 7, 8, 9, 10, 11, 12]);
  });

  it('given a reopened multi-segment log, then offsets continue in the active segment', async () => {
    const first = await open();
    for (let i = 0; i < 10; i++) await first.log.append([record(i)]);
    await first.log.close();

    const { log } = await open();
    expect([log.firstOffset(), log.head(), log.committedHead()]).toEqual([0, 10, 10]);
    expect(await log.append([record(10)])).toEqual({ first: 10, next: 11 });
    expect(await log.append([record(11)])).toEqual({ first: 11, next: 12 });
    expect(segmentFiles(dir.path)).toHaveLength(3);
    expect(texts(await readAll(log))).toEqual(Array.from({ length: 12 }, (_, i) => String(record(i))));
  });

  it('when retention runs, then only whole sealed segments before the offset are deleted', async () => {
    const { log } = await open();
    for (let i = 0; i < 14; i++) await log.append([record(i)]); // segments 0, 4, 8, 12 (active)

    await log.truncateBefore(7); // segment 4 holds 7: it stays
    expect(segmentFiles(dir.path)[0]).toBe('00000000000000000004.log');
    expect(log.firstOffset()).toBe(4);
    expect((await readAll(log, 0)).map((r) => r.offset)[0]).toBe(4);

    await log.truncateBefore(8); // segment 4 ends right before 8: it goes
    expect(log.firstOffset()).toBe(8);

    await log.truncateBefore(1_000); // never the active segment
    expect(segmentFiles(dir.path)).toEqual(['00000000000000000012.log']);
    expect([log.firstOffset(), log.head()]).toEqual([12, 14]);
    expect(texts(await readAll(log, 0))).toEqual([String(record(12)), String(record(13))]);
    await log.close();

    const reopened = await open();
    expect([reopened.log.firstOffset(), reopened.log.head()]).toEqual([12, 14]);
  });
});

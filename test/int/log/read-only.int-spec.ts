import { appendFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { SegmentedEventLog } from '../../../src/log/file/segmented-event-log';
import { LogUnavailableError } from '../../../src/log/log.errors';
import { withTempDir } from '../../support/temp-dir';

const quiet = { log: () => undefined, warn: () => undefined };

async function collect(log: SegmentedEventLog): Promise<string[]> {
  const out: string[] = [];
  for await (const record of log.read(log.firstOffset())) out.push(record.payload.toString());
  return out;
}

describe('segmented log: read-only opening, initial offset, sync', () => {
  it('reads a log another writer owns without cutting its torn tail', () =>
    withTempDir(async (dir) => {
      const writer = new SegmentedEventLog({ dir, logger: quiet });
      await writer.open();
      await writer.append([Buffer.from('a'), Buffer.from('b')]);
      const segment = join(dir, readdirSync(dir)[0]);
      appendFileSync(segment, Buffer.from([9, 0, 0, 0, 1, 2])); // a frame being written right now
      const sizeBefore = statSync(segment).size;

      const reader = new SegmentedEventLog({ dir, logger: quiet, readOnly: true });
      await reader.open();
      expect(await collect(reader)).toEqual(['a', 'b']);
      expect(statSync(segment).size).toBe(sizeBefore);
      await expect(reader.append([Buffer.from('c')])).rejects.toBeInstanceOf(LogUnavailableError);
      await reader.close();
      await writer.close();
    }));

  it('starts an empty directory at the initial offset', () =>
    withTempDir(async (dir) => {
      const log = new SegmentedEventLog({ dir, logger: quiet, initialOffset: 1000 });
      await log.open();
      expect([log.firstOffset(), log.head()]).toEqual([1000, 1000]);
      expect(await log.append([Buffer.from('x')])).toEqual({ first: 1000, next: 1001 });
      await log.close();
      const reopened = new SegmentedEventLog({ dir, logger: quiet });
      await reopened.open();
      expect(await collect(reopened)).toEqual(['x']);
      expect(reopened.head()).toBe(1001);
      await reopened.close();
    }));

  it('sync() fdatasyncs committed records under the none policy', () =>
    withTempDir(async (dir) => {
      const log = new SegmentedEventLog({ dir, logger: quiet, fsync: 'none' });
      await log.open();
      await log.append([Buffer.from('x')]);
      const before = log.stats().fsyncs;
      await log.sync();
      expect(log.stats().fsyncs).toBe(before + 1);
      await log.sync(); // nothing new: no second fdatasync
      expect(log.stats().fsyncs).toBe(before + 1);
      await log.close();
    }));
});

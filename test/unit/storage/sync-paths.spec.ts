import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SyncQueue, syncPaths } from '../../../src/storage/sync-paths';
import { withTempDir } from '../../support/temp-dir';

describe('fsyncs side by side (snapshot restore, checkpoints)', () => {
  it('syncs files and directories, and names a missing path unless told it may be gone', () =>
    withTempDir(async (dir) => {
      const files = Array.from({ length: 40 }, (_, i) => join(dir, `f${i}`));
      for (const file of files) writeFileSync(file, 'x');
      await expect(syncPaths([...files, dir])).resolves.toBeUndefined();
      await expect(syncPaths([join(dir, 'gone'), ...files], true)).resolves.toBeUndefined();
      await expect(syncPaths([...files, join(dir, 'gone')])).rejects.toThrow(/ENOENT/);
    }, 'sync-paths-'));

  it('a queue fed while it works settles once every added path is done, with the first failure', () =>
    withTempDir(async (dir) => {
      const queue = new SyncQueue();
      for (let i = 0; i < 40; i++) {
        writeFileSync(join(dir, `f${i}`), 'x');
        queue.add(join(dir, `f${i}`));
        if (i === 20) queue.add(join(dir, 'missing'));
        if (i % 10 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
      const failure = await queue.settled();
      expect((failure as NodeJS.ErrnoException).code).toBe('ENOENT');
      expect(await queue.settled()).toBe(failure);
    }, 'sync-queue-'));
});

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { snapshotBytes } from '../../../src/projections/snapshot/snapshot-format';
import { installSnapshot, restorePending } from '../../../src/projections/snapshot/snapshot-install';
import { withTempDir } from '../../support/temp-dir';

/** A snapshot of one checkpoint and one ring file, as bytes. */
async function snapshotOf(dir: string): Promise<Buffer> {
  mkdirSync(join(dir, 'src', 'rooms'), { recursive: true });
  writeFileSync(join(dir, 'src', 'ckpt'), '["header",{}]\n');
  writeFileSync(join(dir, 'src', 'rooms', 'one.0.0.jsonl'), 'line one\nline two\n');
  const parts: Buffer[] = [];
  for await (const chunk of snapshotBytes({
    offset: 7,
    createdAt: '2026-11-27T00:00:00.000000Z',
    checkpointPath: join(dir, 'src', 'ckpt'),
    files: { 'one.0.0.jsonl': 18 },
    ringPath: (file) => join(dir, 'src', 'rooms', file),
  }))
    parts.push(chunk);
  return Buffer.concat(parts);
}

async function* once(bytes: Buffer): AsyncGenerator<Uint8Array> {
  yield bytes;
}

describe('installing a snapshot into a data directory', () => {
  const target = (root: string) => ({
    root,
    checkpointsDir: join(root, 'checkpoints'),
    ringPath: (file: string) => join(root, 'rooms', file),
  });

  it('with the sync deferred, files are in place at once and the pending marker stays until they are durable', () =>
    withTempDir(async (dir) => {
      const root = join(dir, 'root');
      mkdirSync(join(root, 'rooms'), { recursive: true });
      const installed = await installSnapshot(once(await snapshotOf(dir)), target(root), true);
      expect(installed?.header.offset).toBe(7);
      expect(readFileSync(join(root, 'rooms', 'one.0.0.jsonl'), 'utf8')).toBe('line one\nline two\n');
      expect(existsSync(join(root, 'checkpoints', `${'7'.padStart(20, '0')}.ckpt`))).toBe(true);
      expect(restorePending(root)).toBe(true);
      await installed?.durable;
      expect(restorePending(root)).toBe(false);
      expect(existsSync(join(root, 'snapshot-restore.tmp'))).toBe(false);
    }, 'snap-install-'));

  it('synced before it returns, it leaves no marker; a damaged one moves nothing and leaves none', () =>
    withTempDir(async (dir) => {
      const root = join(dir, 'root');
      mkdirSync(join(root, 'rooms'), { recursive: true });
      const bytes = await snapshotOf(dir);
      const installed = await installSnapshot(once(bytes), target(root));
      expect(installed?.header.offset).toBe(7);
      expect(restorePending(root)).toBe(false);
      const other = join(dir, 'other');
      mkdirSync(join(other, 'rooms'), { recursive: true });
      const damaged = Buffer.from(bytes);
      damaged[damaged.length - 80] ^= 1;
      expect(await installSnapshot(once(damaged), target(other), true)).toBeNull();
      expect(restorePending(other)).toBe(false);
      expect(existsSync(join(other, 'rooms', 'one.0.0.jsonl'))).toBe(false);
    }, 'snap-install-'));
});

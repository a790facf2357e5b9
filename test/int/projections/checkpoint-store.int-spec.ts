import { readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Checkpoint, CheckpointStore } from '../../../src/projections/checkpoint-store';
import { withTempDir } from '../../support/temp-dir';

function checkpoint(offset: number, notes: number): Checkpoint {
  return {
    version: 2,
    offset,
    createdAt: '2026-11-22T10:00:00.000000Z',
    files: { 'lobby.1.0.jsonl': 120 },
    projections: {
      rooms: { rooms: [{ name: 'lobby', head: 3 }], nonces: [] },
      notes: { notes: Array.from({ length: notes }, (_, i) => ['ns', `k${i}`, 'v'.repeat(50) + i, i]) },
      listing: null,
      other: 'scalar ☃',
    },
  };
}

describe('checkpoint store (streamed JSON lines with a digest)', () => {
  it('round-trips every projection snapshot shape, large arrays included', () =>
    withTempDir(async (root) => {
      const store = new CheckpointStore(root);
      const written = checkpoint(42, 200_000); // ~14 MB: many small lines, never one giant string
      await store.write(written);
      expect(store.offsets()).toEqual([42]);
      expect(store.headers()).toEqual([
        { version: 2, offset: 42, createdAt: written.createdAt, files: written.files },
      ]);
      expect(await store.read(42)).toEqual(written);
    }));

  it('refuses a truncated or altered checkpoint and falls back to the older intact one', () =>
    withTempDir(async (root) => {
      const store = new CheckpointStore(root);
      await store.write(checkpoint(10, 10));
      await store.write(checkpoint(20, 10));
      const newest = join(store.dir, '00000000000000000020.ckpt');
      const bytes = readFileSync(newest);
      bytes[bytes.length - 200] ^= 0x01; // one flipped bit inside a note value
      writeFileSync(newest, bytes);
      expect(await store.read(20)).toBeNull();
      expect((await store.newestIntact())?.offset).toBe(10);
      writeFileSync(newest, readFileSync(join(store.dir, '00000000000000000010.ckpt')));
      truncateSync(newest, statSync(newest).size - 30); // the end line is torn off
      expect(await store.read(20)).toBeNull();
      expect((await store.newestIntact())?.offset).toBe(10);
    }));
});

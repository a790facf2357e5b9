import { createReadStream, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { segmentFileName } from '../log/file/segment';
import { snapshotName } from '../log/snapshot-store';
import { CheckpointStore, checkpointFileName } from '../projections/checkpoint-store';
import { snapshotBytes } from '../projections/snapshot/snapshot-format';
import { installSnapshot } from '../projections/snapshot/snapshot-install';
import { RingFileStore } from '../rooms/ring/ring-file-store';

/**
 * `npm run snapshot` (issue 27): the file backend's side of shared snapshots, in the same format
 * (snapshot-format.ts). A snapshot of a data directory's newest intact checkpoint is a backup of the
 * read models; restoring it into an empty CHAT_ROOT gives a node that starts at that offset.
 */
export async function takeSnapshot(
  root: string,
  outDir: string,
): Promise<{ readonly path: string; readonly offset: number; readonly bytes: number }> {
  const checkpoints = new CheckpointStore(root);
  const newest = await checkpoints.newestIntact();
  if (newest === null) {
    throw new Error(
      `${checkpoints.dir} holds no intact checkpoint: stop the service once (it checkpoints at shutdown)`,
    );
  }
  const rings = new RingFileStore(root);
  mkdirSync(outDir, { recursive: true });
  const path = join(outDir, snapshotName(newest.offset));
  const handle = await open(`${path}.tmp`, 'w');
  let bytes = 0;
  try {
    for await (const chunk of snapshotBytes({
      offset: newest.offset,
      createdAt: newest.createdAt,
      checkpointPath: join(checkpoints.dir, checkpointFileName(newest.offset)),
      files: newest.files,
      ringPath: (file) => rings.path(file),
    })) {
      await handle.write(chunk);
      bytes += chunk.length;
    }
    await handle.sync();
  } catch (error) {
    throw new Error(
      `snapshot of offset ${newest.offset} failed: ${(error as Error).message} (a running service may have ` +
        'collected a file it named: run again)',
    );
  } finally {
    await handle.close();
  }
  await rename(`${path}.tmp`, path);
  return { path, offset: newest.offset, bytes };
}

/**
 * Restores a snapshot file into an empty data directory: its checkpoint and ring files, and an empty
 * log whose first offset is the snapshot's (the file log names segments by base offset), so the
 * service starts there and new writes follow it. Refuses a directory that already holds a log or a
 * checkpoint, and a damaged snapshot.
 */
export async function restoreSnapshot(file: string, root: string): Promise<{ readonly offset: number }> {
  for (const part of ['log', 'checkpoints']) {
    const dir = join(root, part);
    if (existsSync(dir) && readdirSync(dir).length > 0) {
      throw new Error(`${dir} is not empty: restore into a fresh CHAT_ROOT`);
    }
  }
  const checkpoints = new CheckpointStore(root);
  const rings = new RingFileStore(root);
  const installed = await installSnapshot(createReadStream(file), {
    root,
    checkpointsDir: checkpoints.dir,
    ringPath: (name) => rings.path(name),
  });
  if (installed === null) throw new Error(`${file} is damaged (SHA-256 mismatch): nothing restored`);
  const { header } = installed;
  mkdirSync(join(root, 'log'), { recursive: true });
  writeFileSync(join(root, 'log', segmentFileName(header.offset)), '');
  return { offset: header.offset };
}

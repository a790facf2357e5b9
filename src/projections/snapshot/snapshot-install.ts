import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SyncQueue, syncPaths } from '../../storage/sync-paths';
import { checkpointFileName } from '../checkpoint-store';
import { SnapshotHeader, UnpackedSnapshot, unpackSnapshot } from './snapshot-format';

/** Where a snapshot's parts go: the data directory's checkpoints and ring files. */
export interface SnapshotTarget {
  /** CHAT_ROOT: the staging directory `snapshot-restore.tmp` is made (and removed) in it. */
  readonly root: string;
  readonly checkpointsDir: string;
  readonly ringPath: (file: string) => string;
}

/**
 * Restores a snapshot into a data directory (both backends: SnapshotRestore at a nats node's start,
 * `npm run snapshot -- --restore` for the file backend): unpacks it into a staging directory, checks
 * its SHA-256, and only then renames its ring files and its checkpoint into place. Null when the
 * digest does not match (nothing moved); throws when the bytes are not a snapshot at all.
 *
 * Durable in order: the staged files are fsynced (side by side, each as soon as it is written, while
 * the rest still streams in: sync-paths.ts) before any is renamed, and the ring files' directory
 * before the checkpoint naming them appears, so a crash never leaves a checkpoint whose ring bytes
 * are not on disk. Recovery then finds every file at its checkpointed length and has nothing to cut
 * or sync again.
 */
export async function installSnapshot(
  bytes: AsyncIterable<Uint8Array>,
  target: SnapshotTarget,
): Promise<SnapshotHeader | null> {
  const staging = join(target.root, 'snapshot-restore.tmp');
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  try {
    const syncs = new SyncQueue();
    let unpacked: UnpackedSnapshot;
    try {
      unpacked = await unpackSnapshot(bytes, staging, (path) => syncs.add(path));
    } finally {
      await syncs.settled(); // nothing in flight when the staging directory is removed
    }
    const { header, digestOk } = unpacked;
    if (!digestOk) return null;
    const failed = await syncs.settled();
    if (failed !== undefined) throw failed;
    const files = Object.keys(header.files);
    mkdirSync(target.checkpointsDir, { recursive: true });
    for (const file of files) renameSync(join(staging, 'rooms', file), target.ringPath(file));
    await syncPaths([...new Set(files.map((file) => dirname(target.ringPath(file))))]);
    renameSync(join(staging, 'checkpoint'), join(target.checkpointsDir, checkpointFileName(header.offset)));
    await syncPaths([target.checkpointsDir]);
    return header;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

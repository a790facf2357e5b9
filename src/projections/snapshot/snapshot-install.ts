import { existsSync, mkdirSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
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

export interface InstalledSnapshot {
  readonly header: SnapshotHeader;
  /** Resolves once every restored file is on disk (at once unless the sync was deferred). */
  readonly durable: Promise<void>;
}

/** Present while a deferred restore's files may not all be on disk yet (see `installSnapshot`). */
const PENDING = 'snapshot-restore.pending';

/** Whether a restore made with `deferSync` had not finished making its files durable. */
export function restorePending(root: string): boolean {
  return existsSync(join(root, PENDING));
}

/** Forgets an unfinished restore's marker, once whatever trusted it is removed (and that is durable). */
export async function clearRestorePending(root: string): Promise<void> {
  unlinkSync(join(root, PENDING));
  await syncPaths([root]);
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
 *
 * `deferSync` (a joining node: the snapshot is still in NATS, so losing the restored copy costs only
 * a second download): the files are moved into place at once and fsynced in the background while
 * the node already serves (`durable`), which on this machine's shared disk took 1 to 3 s for 192 MB.
 * A marker (`snapshot-restore.pending`, itself durable before anything moves) stays until they are
 * all on disk; a start that finds it trusts no checkpoint of the directory and restores again
 * (SnapshotRestore), so a crash meanwhile never loads ring bytes the disk lost.
 */
export async function installSnapshot(
  bytes: AsyncIterable<Uint8Array>,
  target: SnapshotTarget,
  deferSync = false,
): Promise<InstalledSnapshot | null> {
  const staging = join(target.root, 'snapshot-restore.tmp');
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  try {
    const syncs = deferSync ? undefined : new SyncQueue();
    let unpacked: UnpackedSnapshot;
    try {
      unpacked = await unpackSnapshot(bytes, staging, (path) => syncs?.add(path));
    } finally {
      await syncs?.settled(); // nothing in flight when the staging directory is removed
    }
    const { header, digestOk } = unpacked;
    if (!digestOk) return null;
    const failed = await syncs?.settled();
    if (failed !== undefined) throw failed;
    if (deferSync) {
      writeFileSync(join(target.root, PENDING), `restoring the snapshot at offset ${header.offset}\n`);
      await syncPaths([join(target.root, PENDING), target.root]);
    }
    const files = Object.keys(header.files);
    const ringDirs = [...new Set(files.map((file) => dirname(target.ringPath(file))))];
    const checkpoint = join(target.checkpointsDir, checkpointFileName(header.offset));
    mkdirSync(target.checkpointsDir, { recursive: true });
    for (const file of files) renameSync(join(staging, 'rooms', file), target.ringPath(file));
    if (deferSync) {
      renameSync(join(staging, 'checkpoint'), checkpoint);
      // Files the node compacts or collects meanwhile need no sync: `missingOk`.
      const paths = [checkpoint, ...files.map((file) => target.ringPath(file))];
      const durable = (async () => {
        await syncPaths(paths, true);
        await syncPaths([...ringDirs, target.checkpointsDir]);
        await clearRestorePending(target.root);
      })();
      return { header, durable };
    }
    await syncPaths(ringDirs);
    renameSync(join(staging, 'checkpoint'), checkpoint);
    await syncPaths([target.checkpointsDir]);
    return { header, durable: Promise.resolve() };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

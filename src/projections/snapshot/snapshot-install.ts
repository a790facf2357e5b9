import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { checkpointFileName } from '../checkpoint-store';
import { SnapshotHeader, unpackSnapshot } from './snapshot-format';

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
 */
export async function installSnapshot(
  bytes: AsyncIterable<Uint8Array>,
  target: SnapshotTarget,
): Promise<SnapshotHeader | null> {
  const staging = join(target.root, 'snapshot-restore.tmp');
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  try {
    const { header, digestOk } = await unpackSnapshot(bytes, staging);
    if (!digestOk) return null;
    mkdirSync(target.checkpointsDir, { recursive: true });
    for (const file of Object.keys(header.files))
      renameSync(join(staging, 'rooms', file), target.ringPath(file));
    renameSync(join(staging, 'checkpoint'), join(target.checkpointsDir, checkpointFileName(header.offset)));
    return header;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

import {
  closeSync,
  existsSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { CheckpointFiles } from '../../projections/checkpoint-files';
import { FdCache } from './fd-cache';

/**
 * The ring files: one JSONL file per room and compaction epoch, named `<room>.<generation>.<epoch>.jsonl`
 * inside `<root>/rooms`. They are a materialised projection of the log: written without fsync on the
 * write path (the log already made the write durable), fsynced before a checkpoint names them, and
 * truncated back to the checkpointed length at start-up before the log is replayed over them.
 * A file is only ever appended to; compaction writes the next epoch's file instead of rewriting, so
 * an export that opened the old file keeps reading a consistent snapshot. It is the checkpoint-files
 * port the rooms read model registers (rooms-read-model.module.ts).
 */
export class RingFileStore implements CheckpointFiles {
  readonly dir: string;
  private readonly fds = new FdCache();
  private readonly dirty = new Set<string>();

  constructor(root: string) {
    this.dir = join(root, 'rooms');
    mkdirSync(this.dir, { recursive: true });
  }

  static fileName(room: string, generation: number, epoch: number): string {
    return `${room}.${generation}.${epoch}.jsonl`;
  }

  path(file: string): string {
    return join(this.dir, file);
  }

  /** Writes `data` at byte `position` of the file (its current length), creating it if needed. */
  append(file: string, position: number, data: Buffer): void {
    const fd = this.fds.get(this.path(file));
    let written = 0;
    while (written < data.length) {
      written += writeSync(fd, data, written, data.length - written, position + written);
    }
    this.dirty.add(file);
  }

  /** Creates (or replaces) a file holding exactly `data`: used by compaction for the next epoch. */
  writeWhole(file: string, data: Buffer): void {
    const path = this.path(file);
    this.fds.close(path);
    const fd = openSync(path, 'w');
    try {
      let written = 0;
      while (written < data.length) written += writeSync(fd, data, written, data.length - written, written);
    } finally {
      closeSync(fd);
    }
    this.dirty.add(file);
  }

  /** Bytes [start, end) of a file. */
  readRange(file: string, start: number, end: number): Buffer {
    const buffer = Buffer.allocUnsafe(Math.max(0, end - start));
    const fd = openSync(this.path(file), 'r');
    try {
      let read = 0;
      while (read < buffer.length) {
        const n = readSync(fd, buffer, read, buffer.length - read, start + read);
        if (n === 0) break;
        read += n;
      }
      return read === buffer.length ? buffer : buffer.subarray(0, read);
    } finally {
      closeSync(fd);
    }
  }

  size(file: string): number {
    const path = this.path(file);
    return existsSync(path) ? statSync(path).size : -1;
  }

  /** Cuts a file back to a checkpointed length (start-up recovery). */
  truncate(file: string, length: number): void {
    const path = this.path(file);
    this.fds.close(path);
    const fd = openSync(path, 'r+');
    try {
      if (fstatSync(fd).size !== length) ftruncateSync(fd, length);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }

  delete(file: string): void {
    const path = this.path(file);
    this.fds.close(path);
    this.dirty.delete(file);
    if (existsSync(path)) unlinkSync(path);
  }

  list(): string[] {
    return readdirSync(this.dir).filter((name) => name.endsWith('.jsonl'));
  }

  /** fsyncs every file written since the last call, then the directory (new names must survive too). */
  async syncDirty(): Promise<void> {
    const files = [...this.dirty];
    this.dirty.clear();
    await Promise.all(files.map((file) => syncPath(this.path(file))));
    await syncPath(this.dir);
  }

  close(): void {
    this.fds.closeAll();
  }
}

async function syncPath(path: string): Promise<void> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    // A file compacted away or reaped after it was written needs no sync: no checkpoint will name it.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

import { open } from 'node:fs/promises';

/**
 * The few file operations the log performs on a segment. A node:fs/promises FileHandle satisfies it;
 * tests wrap real handles to inject I/O errors (a failing fdatasync cannot be provoked honestly any
 * other way when the suite runs as root). All positions are explicit: segments are never opened with
 * O_APPEND, because positional writes on an O_APPEND descriptor ignore the position on Linux.
 */
export interface SegmentFileHandle {
  read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
  write(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesWritten: number }>;
  /** fdatasync: data and the metadata needed to read it back (the file size) reach stable storage. */
  datasync(): Promise<void>;
  truncate(length: number): Promise<void>;
  stat(): Promise<{ size: number }>;
  close(): Promise<void>;
}

/** Opens a segment file. `flags` is one of 'r' (readers), 'r+' (recovery, writer) or 'wx' (new segment). */
export type OpenSegmentFile = (path: string, flags: 'r' | 'r+' | 'wx') => Promise<SegmentFileHandle>;

/** The production opener: a real FileHandle, so fsync runs on the libuv pool and never blocks the loop. */
export const openSegmentFile: OpenSegmentFile = (path, flags) => open(path, flags, 0o644);

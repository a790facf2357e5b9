import { closeSync, createReadStream, fstatSync, readSync } from 'node:fs';
import { Readable } from 'node:stream';

/**
 * The bytes of a ring file at one moment, for an export: an open fd when every byte appended is on
 * disk (compaction writes a new file, so the fd keeps reading this snapshot), or a copy in memory
 * when the disk refused to take the held appends (ENOSPC: the export is served anyway, issue 24).
 */
export interface RingSnapshot {
  readonly size: number;
  /** Bytes [start, end) (fewer only if the file is shorter). */
  read(start: number, end: number): Buffer;
  /** Bytes [start, end) as a stream; the snapshot closes when it ends. */
  stream(start: number, end: number, highWaterMark: number): Readable;
  /** Releases it when no stream is made. */
  close(): void;
}

export function fdSnapshot(fd: number): RingSnapshot {
  return {
    size: fstatSync(fd).size,
    read: (start, end) => {
      const buffer = Buffer.allocUnsafe(Math.max(0, end - start));
      const n = readSync(fd, buffer, 0, buffer.length, start);
      return buffer.subarray(0, n);
    },
    stream: (start, end, highWaterMark) => createReadStream('', { fd, start, end: end - 1, highWaterMark }),
    close: () => closeSync(fd),
  };
}

export function memorySnapshot(bytes: Buffer): RingSnapshot {
  return {
    size: bytes.length,
    read: (start, end) => bytes.subarray(start, Math.min(end, bytes.length)),
    stream: (start, end) => Readable.from([bytes.subarray(start, end)]),
    close: () => undefined,
  };
}

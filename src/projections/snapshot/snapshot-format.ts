import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The snapshot format (version 1), one for both backends (issue 27): a checkpoint and the ring bytes
 * valid at its offset, in one byte stream a fresh node restores from.
 *
 *   {"format":"agent-chat-snapshot","version":1,"offset":…,"createdAt":…,"checkpoint":<bytes>,"files":{…}}\n
 *   <the checkpoint file, byte for byte (checkpoint-format.ts, with its own SHA-256)>
 *   <each ring file named in `files`, its first `files[name]` bytes, in the order of `files`>
 *   <SHA-256 hex of every byte before it>\n
 *
 * Everything needed is named in the header line, so a reader knows where each part ends before it
 * reads it, and the trailing digest covers the header too: a damaged or truncated snapshot is
 * detected before any of it is used.
 */
export interface SnapshotHeader {
  readonly format: 'agent-chat-snapshot';
  readonly version: 1;
  /** The next log offset to apply after restoring it (the checkpoint's). */
  readonly offset: number;
  readonly createdAt: string;
  /** Bytes of the checkpoint file. */
  readonly checkpoint: number;
  /** Ring file name → length valid at `offset`. */
  readonly files: Record<string, number>;
}

/** What a snapshot is taken from: a checkpoint written to disk and the ring files it names. */
export interface SnapshotSource {
  readonly offset: number;
  readonly createdAt: string;
  readonly checkpointPath: string;
  readonly files: Record<string, number>;
  readonly ringPath: (file: string) => string;
}

const CHUNK = 1 << 20;
const DIGEST_LINE = 65;

/** The snapshot's bytes, read from the files a chunk at a time (never the whole state in memory). */
export async function* snapshotBytes(source: SnapshotSource): AsyncGenerator<Buffer> {
  const hash = createHash('sha256');
  const header: SnapshotHeader = {
    format: 'agent-chat-snapshot',
    version: 1,
    offset: source.offset,
    createdAt: source.createdAt,
    checkpoint: (await stat(source.checkpointPath)).size,
    files: source.files,
  };
  const first = Buffer.from(`${JSON.stringify(header)}\n`);
  hash.update(first);
  yield first;
  const parts: Array<[string, number]> = [[source.checkpointPath, header.checkpoint]];
  for (const [file, length] of Object.entries(source.files)) parts.push([source.ringPath(file), length]);
  for (const [path, length] of parts) {
    for await (const chunk of fileRange(path, length)) {
      hash.update(chunk);
      yield chunk;
    }
  }
  yield Buffer.from(`${hash.digest('hex')}\n`);
}

async function* fileRange(path: string, length: number): AsyncGenerator<Buffer> {
  const handle = await open(path, 'r');
  try {
    for (let position = 0; position < length;) {
      const buffer = Buffer.allocUnsafe(Math.min(CHUNK, length - position));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
      if (bytesRead === 0) throw new Error(`${path} ends at ${position} bytes, the snapshot needs ${length}`);
      position += bytesRead;
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}

/** A snapshot unpacked into a directory: `checkpoint` and `rooms/<file>` (not yet checked: see `digestOk`). */
export interface UnpackedSnapshot {
  readonly header: SnapshotHeader;
  /** Whether the trailing digest matched every byte before it. */
  readonly digestOk: boolean;
}

/**
 * Writes a snapshot's parts into `dir` as they stream in (`dir/checkpoint`, `dir/rooms/<file>`),
 * hashing every byte; the caller uses them only when `digestOk`. Throws on a stream that is not a
 * snapshot at all (no header line, another format) or ends early. `written` hears each file's path
 * once its bytes are all written and it is closed (the restore starts its fsync there).
 */
export async function unpackSnapshot(
  bytes: AsyncIterable<Uint8Array>,
  dir: string,
  written: (path: string) => void = () => {},
): Promise<UnpackedSnapshot> {
  mkdirSync(join(dir, 'rooms'), { recursive: true });
  const hash = createHash('sha256');
  let pending: Buffer = Buffer.alloc(0);
  let header: SnapshotHeader | null = null;
  const parts: Array<[string, number]> = [];
  let fd = -1;
  let path = '';
  let left = 0;
  const close = (): void => {
    closeSync(fd);
    fd = -1;
    written(path);
  };
  try {
    for await (const chunk of bytes) {
      // A view, not a copy: every byte is written to its file before the next chunk is read.
      const view = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      pending = pending.length === 0 ? view : Buffer.concat([pending, view]);
      if (header === null) {
        const end = pending.indexOf(0x0a);
        if (end < 0) {
          if (pending.length > 64 << 20) throw new Error('no snapshot header line');
          continue;
        }
        header = parseHeader(pending.subarray(0, end).toString('utf8'));
        hash.update(pending.subarray(0, end + 1));
        pending = pending.subarray(end + 1);
        parts.push([join(dir, 'checkpoint'), header.checkpoint]);
        for (const [file, length] of Object.entries(header.files)) {
          parts.push([join(dir, 'rooms', safeName(file)), length]);
        }
      }
      while (pending.length > 0 && (parts.length > 0 || left > 0)) {
        if (left === 0) {
          if (fd >= 0) close();
          let length;
          [path, length] = parts.shift()!;
          fd = openSync(path, 'w');
          left = length;
          if (left === 0) continue;
        }
        const piece = pending.subarray(0, Math.min(left, pending.length));
        writeSync(fd, piece);
        hash.update(piece);
        left -= piece.length;
        pending = pending.subarray(piece.length);
      }
    }
    if (fd >= 0) close();
    // Parts of zero bytes at the end still get their (empty) file.
    for (const [empty, length] of parts) {
      if (length > 0) continue;
      closeSync(openSync(empty, 'w'));
      written(empty);
    }
    if (header === null || left > 0 || parts.some(([, length]) => length > 0)) {
      throw new Error('snapshot ends early');
    }
    const digestOk = pending.length === DIGEST_LINE && pending.toString('utf8') === `${hash.digest('hex')}\n`;
    return { header, digestOk };
  } finally {
    if (fd >= 0) closeSync(fd);
  }
}

function parseHeader(text: string): SnapshotHeader {
  const header = JSON.parse(text) as SnapshotHeader;
  if (header.format !== 'agent-chat-snapshot' || header.version !== 1) {
    throw new Error(`not a snapshot of a version this build reads (${text.slice(0, 80)})`);
  }
  return header;
}

/** A ring file name from a snapshot header must stay inside the directory it is restored into. */
function safeName(file: string): string {
  if (!/^[^/\\]+$/.test(file) || file === '.' || file === '..') throw new Error(`unsafe file name ${file}`);
  return file;
}

import { decodeFrame } from './frame';
import { SegmentFileHandle } from './segment-file';

/** Bytes read per call while scanning: large enough to amortise syscalls, small enough to not matter. */
export const SCAN_CHUNK_BYTES = 64 * 1024;

export type ScanItem =
  /** A valid frame at byte `position`; `payload` is a view into a scan buffer (copy it to keep it). */
  | {
      readonly kind: 'record';
      readonly position: number;
      readonly frameBytes: number;
      readonly payload: Buffer;
      /** The next record belongs to the same append (FORMAT.md, Batches). */
      readonly continues: boolean;
    }
  /** The file ends exactly at a frame boundary (`position` = file size). Always the last item. */
  | { readonly kind: 'end'; readonly position: number }
  /**
   * The bytes from `position` on are not a valid frame: `torn` when the file ends inside a frame,
   * otherwise a checksum or length failure. Always the last item.
   */
  | { readonly kind: 'damaged'; readonly position: number; readonly torn: boolean; readonly reason: string };

/**
 * Walks the frames of a segment file from its start, reading it in chunks (never the whole file at
 * once; a chunk grows only to hold one frame larger than SCAN_CHUNK_BYTES). It stops at the first
 * damage: frames carry no resynchronisation marker, so nothing after damage can be trusted to be a
 * frame boundary. Reads the file as it is on disk; the caller bounds what it consumes.
 */
export async function* scanSegment(
  handle: SegmentFileHandle,
  chunkBytes: number = SCAN_CHUNK_BYTES,
): AsyncGenerator<ScanItem, void, undefined> {
  let buffer = Buffer.alloc(0);
  let bufferStart = 0; // file position of buffer[0]
  let cursor = 0; // index in buffer of the next frame
  let eof = false;
  for (;;) {
    const decoded = decodeFrame(buffer, cursor);
    const position = bufferStart + cursor;
    if (decoded.kind === 'record') {
      const { frameBytes, payload, continues } = decoded;
      yield { kind: 'record', position, frameBytes, payload, continues };
      cursor += decoded.frameBytes;
      continue;
    }
    if (decoded.kind === 'bad') {
      yield { kind: 'damaged', position, torn: false, reason: decoded.reason };
      return;
    }
    const have = buffer.length - cursor;
    if (eof) {
      if (have === 0) yield { kind: 'end', position };
      else yield { kind: 'damaged', position, torn: true, reason: torn(have, decoded.needed) };
      return;
    }
    const want = Math.max(chunkBytes, decoded.needed - have);
    const chunk = Buffer.allocUnsafe(want);
    const { bytesRead } = await handle.read(chunk, 0, want, bufferStart + buffer.length);
    if (bytesRead === 0) {
      eof = true;
      continue;
    }
    buffer = Buffer.concat([buffer.subarray(cursor), chunk.subarray(0, bytesRead)]);
    bufferStart = position;
    cursor = 0;
  }
}

function torn(have: number, needed: number): string {
  return `file ends inside a frame (${have} of ${needed} bytes present)`;
}

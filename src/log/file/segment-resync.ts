import { decodeFrame } from './frame';
import { SegmentFileHandle } from './segment-file';

/**
 * The first byte position after `from` where a whole valid frame starts, or null when none does.
 * Frames carry no resynchronisation marker, so every position is tried; a false match needs a length
 * field that fits the file and a CRC-32 that matches by chance (about 2^-32 per position), and the
 * service's payloads are JSON text, which never holds the zero bytes a frame header has.
 *
 * This is what tells a torn tail (nothing valid after the damage: a write that never completed) from
 * damage inside the log (valid frames follow: records that were written, maybe acknowledged, after
 * it). Runs only when damage was found; reads the rest of the file at once (a segment is bounded by
 * the roll size plus one append).
 */
export async function firstValidFrameAfter(handle: SegmentFileHandle, from: number): Promise<number | null> {
  const { size } = await handle.stat();
  const rest = Buffer.alloc(Math.max(0, size - from - 1));
  let read = 0;
  while (read < rest.length) {
    const { bytesRead } = await handle.read(rest, read, rest.length - read, from + 1 + read);
    if (bytesRead === 0) break;
    read += bytesRead;
  }
  const bytes = rest.subarray(0, read);
  for (let at = 0; at < bytes.length; at++) {
    if (decodeFrame(bytes, at).kind === 'record') return from + 1 + at;
  }
  return null;
}

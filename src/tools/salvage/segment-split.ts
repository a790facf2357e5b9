import { decodeFrame } from '../../log/file/frame';

/** Bytes of a segment that are not valid frames: moved aside by salvage, never dropped. */
export interface DamagedRegion {
  /** Byte position in the segment. */
  readonly position: number;
  readonly bytes: Buffer;
  /** Valid frames before it in the segment (its place in the record order). */
  readonly afterFrames: number;
}

export interface SegmentSplit {
  /** Every whole valid frame, in file order (header included, as on disk). */
  readonly frames: Buffer[];
  readonly damaged: DamagedRegion[];
}

/**
 * Splits a segment's bytes into its valid frames and the damaged regions between them: at damage, the
 * next position where a whole valid frame starts (every byte is tried: frames carry no marker) ends
 * the region; a region with no valid frame after it runs to the end of the file (a torn tail).
 * Frames plus regions are every byte of the file, in order.
 */
export function splitSegment(bytes: Buffer): SegmentSplit {
  const frames: Buffer[] = [];
  const damaged: DamagedRegion[] = [];
  let at = 0;
  while (at < bytes.length) {
    const decoded = decodeFrame(bytes, at);
    if (decoded.kind === 'record') {
      frames.push(bytes.subarray(at, at + decoded.frameBytes));
      at += decoded.frameBytes;
      continue;
    }
    let resume = at + 1;
    while (resume < bytes.length && decodeFrame(bytes, resume).kind !== 'record') resume++;
    damaged.push({ position: at, bytes: bytes.subarray(at, resume), afterFrames: frames.length });
    at = resume;
  }
  return { frames, damaged };
}

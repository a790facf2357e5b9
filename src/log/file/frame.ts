import { crc32 } from 'node:zlib';

/**
 * One record frame on disk (see FORMAT.md):
 *
 *   bytes 0..3   payload length, u32 little-endian
 *   bytes 4..7   CRC-32 (zlib/IEEE) of bytes 0..3 followed by the payload, u32 little-endian
 *   bytes 8..    payload
 *
 * The top bit of the length field (BATCH_CONTINUES) marks a record that is not the last of its append:
 * the records of one append (a batch, stored atomically) are consecutive frames, all flagged but the
 * last. Logs written before the flag existed never set it (their lengths stay below 2^25), so each of
 * their records reads as a batch of its own.
 *
 * The checksum covers the length field as well as the payload. That is deliberate: a zero-filled tail
 * (length 0, CRC 0) must not decode as a run of valid empty records, and a flipped bit in the length
 * must be caught even when the shorter or longer slice happens to be readable.
 */
export const FRAME_HEADER_BYTES = 8;

/**
 * Largest payload a frame may carry. Decoding refuses bigger lengths before allocating anything, so a
 * damaged length field cannot make recovery allocate gigabytes; appending a bigger payload is refused.
 */
export const MAX_PAYLOAD_BYTES = 16 * 1024 * 1024;

/** Bit 31 of the length field: the next record belongs to the same append. */
export const BATCH_CONTINUES = 0x8000_0000;

export type FrameDecoding =
  /**
   * A whole, checksummed frame starts at the position; `frameBytes` = header + payload; `continues`:
   * the next record belongs to the same append.
   */
  | {
      readonly kind: 'record';
      readonly payload: Buffer;
      readonly frameBytes: number;
      readonly continues: boolean;
    }
  /** The buffer ends inside the frame: `needed` bytes from the position would complete it. */
  | { readonly kind: 'torn'; readonly needed: number }
  /** The bytes at the position are not a frame (checksum mismatch or impossible length). */
  | { readonly kind: 'bad'; readonly reason: string };

/** The frame checksum: CRC-32 over the 4 length bytes, continued over the payload. */
export function frameChecksum(lengthField: Buffer, payload: Buffer): number {
  return crc32(payload, crc32(lengthField));
}

/**
 * Encodes one payload as a frame; `continues` when a later record of the same append follows it. The
 * result is a copy: later changes to `payload` do not affect it.
 */
export function encodeFrame(payload: Buffer, continues = false): Buffer {
  if (payload.length > MAX_PAYLOAD_BYTES) {
    throw new RangeError(`record payload is ${payload.length} bytes, the maximum is ${MAX_PAYLOAD_BYTES}`);
  }
  const frame = Buffer.allocUnsafe(FRAME_HEADER_BYTES + payload.length);
  frame.writeUInt32LE((payload.length | (continues ? BATCH_CONTINUES : 0)) >>> 0, 0);
  payload.copy(frame, FRAME_HEADER_BYTES);
  frame.writeUInt32LE(frameChecksum(frame.subarray(0, 4), payload), 4);
  return frame;
}

/** The payload inside a frame produced by `encodeFrame` (a view, no copy). */
export function framePayload(frame: Buffer): Buffer {
  return frame.subarray(FRAME_HEADER_BYTES);
}

/**
 * Decodes the frame starting at `position` in `buffer`. Never throws and never allocates: the returned
 * payload is a view into `buffer`. A length above MAX_PAYLOAD_BYTES is `bad` even if the bytes exist.
 */
export function decodeFrame(buffer: Buffer, position: number): FrameDecoding {
  const available = buffer.length - position;
  if (available < FRAME_HEADER_BYTES) return { kind: 'torn', needed: FRAME_HEADER_BYTES };
  const field = buffer.readUInt32LE(position);
  const continues = (field & BATCH_CONTINUES) !== 0;
  const length = (field & ~BATCH_CONTINUES) >>> 0;
  if (length > MAX_PAYLOAD_BYTES) {
    return { kind: 'bad', reason: `length field ${length} exceeds the ${MAX_PAYLOAD_BYTES}-byte maximum` };
  }
  const frameBytes = FRAME_HEADER_BYTES + length;
  if (available < frameBytes) return { kind: 'torn', needed: frameBytes };
  const stored = buffer.readUInt32LE(position + 4);
  const payload = buffer.subarray(position + FRAME_HEADER_BYTES, position + frameBytes);
  const actual = frameChecksum(buffer.subarray(position, position + 4), payload);
  if (actual !== stored) {
    return { kind: 'bad', reason: `checksum mismatch (stored ${hex32(stored)}, computed ${hex32(actual)})` };
  }
  return { kind: 'record', payload, frameBytes, continues };
}

function hex32(value: number): string {
  return `0x${value.toString(16).padStart(8, '0')}`;
}

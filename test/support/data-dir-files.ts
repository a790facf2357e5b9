import { cpSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeFrame, encodeFrame } from '../../src/log/file/frame';
import { formatFinding } from '../../src/tools/verify/finding';
import { verifyDataDir } from '../../src/tools/verify/verify-data-dir';

/** The log segments of a data directory, oldest first. */
export const segments = (root: string): string[] => filesIn(root, 'log', '.log');

/** The ring files of a data directory, by name. */
export const rings = (root: string): string[] => filesIn(root, 'rooms', '.jsonl');

function filesIn(root: string, dir: string, suffix: string): string[] {
  return readdirSync(join(root, dir))
    .filter((name) => name.endsWith(suffix))
    .sort()
    .map((name) => join(root, dir, name));
}

export interface Frame {
  readonly position: number;
  readonly payload: Buffer;
  /** The batch mark (bit 31 of the length field): the next record is in the same append. */
  readonly continues: boolean;
}

/**
 * Each whole valid frame of a segment file (8-byte header: length with the batch mark, CRC;
 * src/log/file/FORMAT.md), read with the log's own decoder; stops at damage.
 */
export function frames(path: string): Frame[] {
  const bytes = readFileSync(path);
  const out: Frame[] = [];
  for (let at = 0; at < bytes.length;) {
    const decoded = decodeFrame(bytes, at);
    if (decoded.kind !== 'record') break;
    out.push({ position: at, payload: decoded.payload, continues: decoded.continues });
    at += decoded.frameBytes;
  }
  return out;
}

/** The segment's bytes with `frame` replaced by a valid frame (CRC fixed) of `payload`: a forgery. */
export function withFrameRewritten(segment: Buffer, frame: Frame, payload: Buffer): Buffer {
  return Buffer.concat([
    segment.subarray(0, frame.position),
    encodeFrame(payload, frame.continues),
    segment.subarray(frame.position + 8 + frame.payload.length),
  ]);
}

/** What `npm run verify` finds in `root`, one formatted line per finding. */
export async function verifyProblems(root: string): Promise<string[]> {
  return (await verifyDataDir(root)).findings.map(formatFinding);
}

/** A function that copies the data directory `source()` into a fresh subdirectory of `into` each call. */
export function dataDirCopier(into: string, source: () => string): () => string {
  let copies = 0;
  return () => {
    const target = join(into, `copy-${copies++}`);
    cpSync(source(), target, { recursive: true });
    return target;
  };
}

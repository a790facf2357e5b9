import { readFileSync } from 'node:fs';
import { decodeFrame } from '../../src/log/file/frame';

/** Each whole valid frame of a segment file: its byte position and payload (stops at damage). */
export function segmentFrames(
  path: string,
): Array<{ position: number; payload: Buffer; frameBytes: number }> {
  const bytes = readFileSync(path);
  const out: Array<{ position: number; payload: Buffer; frameBytes: number }> = [];
  for (let at = 0; at < bytes.length;) {
    const decoded = decodeFrame(bytes, at);
    if (decoded.kind !== 'record') break;
    out.push({ position: at, payload: decoded.payload, frameBytes: decoded.frameBytes });
    at += decoded.frameBytes;
  }
  return out;
}

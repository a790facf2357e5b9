import { readdirSync, statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { listSegmentBases } from '../../log/file/segment-directory';
import { openSegmentFile } from '../../log/file/segment-file';
import { scanSegment } from '../../log/file/segment-scan';
import { segmentFileName } from '../../log/file/segment';
import { Finding } from './finding';

export interface LogAudit {
  /** Records read with a valid frame, in offset order. */
  readonly records: number;
  /** The offset after the last valid record. */
  readonly head: number;
  /** The base of the oldest segment (0 for an empty directory). */
  readonly firstOffset: number;
  readonly findings: Finding[];
}

/** How long a torn end of the newest segment may take to complete before it counts as damage. */
const IN_FLIGHT_GRACE_MS = 300;

/**
 * Walks every frame of `<root>/log` (format: src/log/file/FORMAT.md): each frame's CRC and length, and
 * that segment bases continue exactly where the previous segment's records ended. Calls `onRecord`
 * with each valid record. Read-only; a running service may be appending: a torn frame at the very end
 * of the newest segment that completes within a moment is a write in flight, not damage.
 */
export async function auditLog(
  root: string,
  onRecord: (offset: number, payload: Buffer, file: string) => void,
): Promise<LogAudit> {
  const dir = join(root, 'log');
  const bases = await listSegmentBases(dir);
  const findings: Finding[] = [];
  let records = 0;
  let next = bases[0] ?? 0;
  for (const [index, base] of bases.entries()) {
    const file = `log/${segmentFileName(base)}`;
    if (base !== next) {
      findings.push({ file, what: `segment starts at offset ${base}, but the previous one ends at ${next}` });
    }
    next = base;
    const newest = index === bases.length - 1;
    const handle = await openSegmentFile(join(dir, segmentFileName(base)), 'r');
    try {
      for await (const item of scanSegment(handle)) {
        if (item.kind === 'record') {
          onRecord(next, Buffer.from(item.payload), file);
          next++;
          records++;
        } else if (item.kind === 'damaged') {
          if (newest && item.torn && (await grewMeanwhile(join(root, file), item.position))) break;
          const kind = item.torn ? 'torn frame (the file ends inside it)' : item.reason;
          findings.push({ file, offset: next, position: item.position, what: kind });
        }
      }
    } finally {
      await handle.close();
    }
  }
  return { records, head: next, firstOffset: bases[0] ?? 0, findings };
}

async function grewMeanwhile(path: string, tornAt: number): Promise<boolean> {
  const before = (await stat(path)).size;
  await new Promise((resolve) => setTimeout(resolve, IN_FLIGHT_GRACE_MS));
  const after = (await stat(path)).size;
  return after > before && after > tornAt;
}

/** Total bytes of the log's files: a running service that appends makes it grow. */
export function logBytes(root: string): number {
  const dir = join(root, 'log');
  return readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
}

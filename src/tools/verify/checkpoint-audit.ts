import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { checkpointFileName, CheckpointStore } from '../../projections/checkpoint-store';
import { Finding } from './finding';
import { readIfPresent } from './read-if-present';

/**
 * Checks each checkpoint's seal (checkpoint-format.ts): the last line is `["end", sha256]` over every
 * byte before it. Reports a missing end line (truncated) or the digest it holds against the one the
 * contents have.
 */
export function auditCheckpoints(root: string): { readonly checked: number; readonly findings: Finding[] } {
  // The store creates its directory when missing: a read-only check must not.
  if (!existsSync(join(root, 'checkpoints'))) return { checked: 0, findings: [] };
  const store = new CheckpointStore(root);
  const findings: Finding[] = [];
  const offsets = store.offsets();
  for (const offset of offsets) {
    const name = checkpointFileName(offset);
    const bytes = readIfPresent(join(store.dir, name));
    if (bytes === null) continue; // removed by the running service's retention since it was listed
    const problem = sealProblem(bytes);
    if (problem !== null) findings.push({ file: `checkpoints/${name}`, what: problem });
  }
  return { checked: offsets.length, findings };
}

function sealProblem(bytes: Buffer): string | null {
  const body = bytes.subarray(0, bytes.length - 1); // without the final newline
  const lastLineStart = body.lastIndexOf(0x0a) + 1;
  let end: unknown;
  try {
    end = JSON.parse(body.subarray(lastLineStart).toString('utf8'));
  } catch {
    end = null;
  }
  if (!Array.isArray(end) || end[0] !== 'end' || bytes[bytes.length - 1] !== 0x0a) {
    return 'no end line: the checkpoint is truncated';
  }
  const actual = createHash('sha256').update(bytes.subarray(0, lastLineStart)).digest('hex');
  return actual === end[1] ? null : `contents hash to ${actual}, but the end line records ${String(end[1])}`;
}

/**
 * Ring-file lengths the newest intact checkpoint records: a start-up needs each file at least this
 * long (it truncates to it and replays the log after it), so bytes past it are the log's to rewrite.
 */
export async function checkpointedRingLengths(root: string): Promise<ReadonlyMap<string, number>> {
  if (!existsSync(join(root, 'checkpoints'))) return new Map();
  const newest = await new CheckpointStore(root).newestIntact();
  return new Map(Object.entries(newest?.files ?? {}));
}

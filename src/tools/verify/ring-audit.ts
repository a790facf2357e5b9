import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { replay } from '../replay';
import { Finding } from './finding';
import { readIfPresent } from './read-if-present';

export interface RingAudit {
  readonly compared: number;
  readonly findings: Finding[];
}

/**
 * Replays the log into a temporary directory with the replay tool (the same projections the service
 * runs) and compares every ring file with the data directory's, byte for byte. Read-only on `root`.
 * While a service appends, a live ring may be longer than the replayed one: that is accepted when the
 * replayed file is a prefix of it and the log has grown since the check began (`logGrew`). A ring may
 * also be shorter, a whole-line prefix of the replayed file: the service holds ring appends in memory
 * for a moment (RingFileStore), and a crash loses what it held. That is accepted down to the length
 * the newest checkpoint records for the file (`checkpointed`), because the next start truncates the
 * file to exactly that length and rewrites the rest from the log; shorter than that is damage. A file
 * missing altogether is accepted on the same ground when no checkpoint names it.
 */
export async function auditRings(
  root: string,
  logGrew: () => boolean,
  checkpointed: ReadonlyMap<string, number> = new Map(),
): Promise<RingAudit> {
  const scratch = mkdtempSync(join(tmpdir(), 'agent-chat-verify-'));
  const rebuilt = join(scratch, 'data');
  try {
    await replay({ source: root, target: rebuilt });
    const grew = logGrew();
    const findings: Finding[] = [];
    const live = ringFiles(root);
    const replayed = ringFiles(rebuilt);
    for (const name of new Set([...live, ...replayed])) {
      const file = `rooms/${name}`;
      if (!replayed.has(name)) {
        findings.push({ file, what: 'exists, but replaying the log does not produce it' });
        continue;
      }
      const expected = readFileSync(join(rebuilt, 'rooms', name));
      if (!live.has(name)) {
        // No checkpoint needs any of it: a start writes the whole file from the log (after a salvage).
        if (!checkpointed.has(name)) continue;
        findings.push({ file, what: `missing: replaying the log produces ${expected.length} bytes` });
        continue;
      }
      const actual = readIfPresent(join(root, 'rooms', name));
      if (actual === null) {
        // Compacted or reaped by the running service while we replayed.
        if (!grew) findings.push({ file, what: 'disappeared while it was being checked' });
        continue;
      }
      const problem = difference(actual, expected, grew, checkpointed.get(name) ?? 0);
      if (problem !== null) findings.push({ file, ...problem });
    }
    return { compared: replayed.size, findings };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function ringFiles(root: string): Set<string> {
  const dir = join(root, 'rooms');
  return new Set(existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.jsonl')) : []);
}

function difference(
  actual: Buffer,
  expected: Buffer,
  logGrew: boolean,
  checkpointedLength: number,
): { position: number; what: string } | null {
  const shared = Math.min(actual.length, expected.length);
  let at = 0;
  while (at < shared && actual[at] === expected[at]) at++;
  if (at === shared) {
    if (actual.length === expected.length) return null;
    if (actual.length > expected.length && logGrew) return null; // appended while we replayed
    const wholeLines = actual.length === 0 || actual[actual.length - 1] === 0x0a;
    if (actual.length < expected.length && wholeLines && actual.length >= checkpointedLength) return null;
    return {
      position: at,
      what: `is ${actual.length} bytes, but replaying the log gives ${expected.length} (identical up to there)`,
    };
  }
  const line = actual.subarray(0, at).toString('utf8').split('\n').length;
  return {
    position: at,
    what: `differs from the replayed file at line ${line}: ${excerpt(actual, at)} where replay has ${excerpt(expected, at)}`,
  };
}

function excerpt(bytes: Buffer, at: number): string {
  return JSON.stringify(bytes.subarray(at, at + 24).toString('utf8'));
}

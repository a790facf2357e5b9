import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CheckpointStore, checkpointFileName } from '../../projections/checkpoint-store';
import { RoomMeta } from '../../rooms/read-side/room-meta';
import { chainOver } from '../../rooms/chain/room-chain';
import { Finding } from './finding';
import { readIfPresent } from './read-if-present';

/** What one checkpoint says a ring file's first `bytes` chain to. */
interface Sealed {
  readonly checkpoint: string;
  readonly bytes: number;
  readonly anchor: string;
  readonly chain: string;
}

/**
 * Room chains against the checkpoints (issue 29): every intact checkpoint records, per live room, its
 * ring file, the length it trusts, the anchor and the chain value after that length. Folding the ring
 * file's bytes from the anchor must reach the recorded value. A ring rewritten together with the log
 * (so a replay reproduces it and the comparison with the replay passes) still fails here, because the
 * chain value was sealed before. Several checkpoints of one file narrow the damage down to a byte
 * range: after the longest prefix that still chains, up to the shortest that does not.
 */
export async function auditChains(
  root: string,
): Promise<{ readonly rooms: number; readonly findings: Finding[] }> {
  if (!existsSync(join(root, 'checkpoints'))) return { rooms: 0, findings: [] };
  const store = new CheckpointStore(root);
  const sealed = new Map<string, Sealed[]>();
  for (const offset of store.offsets()) {
    const checkpoint = await store.read(offset);
    const rooms = (checkpoint?.projections.rooms as { rooms?: RoomMeta[] } | undefined)?.rooms ?? [];
    for (const meta of rooms) {
      if (!meta.exists || !meta.chain) continue; // reaped, or from before chains / with the chain off
      const list = sealed.get(meta.file) ?? [];
      list.push({
        checkpoint: checkpointFileName(offset),
        bytes: meta.bytes,
        anchor: meta.anchor,
        chain: meta.chain,
      });
      sealed.set(meta.file, list);
    }
  }
  const findings: Finding[] = [];
  for (const [file, seals] of sealed) {
    const bytes = readIfPresent(join(root, 'rooms', file));
    if (bytes === null) continue; // the ring audit reports a missing file; a live compaction removes old ones
    const finding = chainFinding(`rooms/${file}`, bytes, seals);
    if (finding !== null) findings.push(finding);
  }
  return { rooms: sealed.size, findings };
}

function chainFinding(file: string, bytes: Buffer, seals: Sealed[]): Finding | null {
  const ordered = [...seals].sort((a, b) => a.bytes - b.bytes);
  let good = 0;
  for (const seal of ordered) {
    if (bytes.length < seal.bytes) {
      return {
        file,
        position: bytes.length,
        what: `hash chain: ${seal.checkpoint} sealed ${seal.bytes} bytes, the file holds ${bytes.length}`,
      };
    }
    if (chainOver(seal.anchor, bytes.subarray(0, seal.bytes)) === seal.chain) {
      good = seal.bytes;
      continue;
    }
    const from = lineNumber(bytes, good);
    return {
      file,
      position: good,
      what:
        `hash chain: bytes ${good} to ${seal.bytes} (from line ${from}) do not chain to the value ${seal.checkpoint} ` +
        'sealed: a line there was changed, removed or reordered after the checkpoint',
    };
  }
  return null;
}

function lineNumber(bytes: Buffer, position: number): number {
  let line = 1;
  for (let at = bytes.indexOf(10); at >= 0 && at < position; at = bytes.indexOf(10, at + 1)) line++;
  return line;
}

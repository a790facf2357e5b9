import {
  closeSync,
  readdirSync,
  statSync,
  truncateSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { listSegmentBases } from '../../log/file/segment-directory';
import { segmentFileName } from '../../log/file/segment';
import { checkpointFileName, CheckpointStore } from '../../projections/checkpoint-store';
import { splitSegment } from './segment-split';

/** What salvage did (or, with dryRun, would do): one line per change, for the operator. */
export interface SalvageReport {
  readonly actions: string[];
  readonly framesKept: number;
  readonly damagedRegions: number;
  readonly damagedBytes: number;
}

interface SegmentPlan {
  readonly base: number;
  readonly name: string;
  readonly frames: Buffer[];
  readonly damaged: ReturnType<typeof splitSegment>['damaged'];
  newBase: number;
}

/**
 * `npm run salvage -- <dir>`: the way out of a start refused for a damaged log (issue 24). Keeps every
 * valid frame of every segment, in order, and moves each damaged region into
 * `<dir>/salvage/<segment>.<byte>.damaged` (frames kept plus regions moved are every byte the segment
 * held: nothing is dropped). The damaged regions held records, so offsets after the first damage
 * shift down: later segments are renamed to keep offsets contiguous, and checkpoints past the first
 * damage (they count records in the old numbering) are moved to `<dir>/salvage/checkpoints/`, ring
 * files past what the remaining checkpoints record to `<dir>/salvage/rooms/`; the next start replays
 * from an older checkpoint or from the log's start. Every file written is fsynced
 * before the one it replaces is renamed over, and each directory after its changes.
 */
export async function salvageDataDir(root: string, dryRun: boolean): Promise<SalvageReport> {
  const logDir = join(root, 'log');
  const aside = join(root, 'salvage');
  const plans: SegmentPlan[] = [];
  for (const base of await listSegmentBases(logDir)) {
    const name = segmentFileName(base);
    const split = splitSegment(readFileSync(join(logDir, name)));
    plans.push({ base, name, ...split, newBase: base });
  }
  let firstDamage: number | null = null;
  for (const [index, plan] of plans.entries()) {
    if (index > 0) plan.newBase = plans[index - 1].newBase + plans[index - 1].frames.length;
    if (firstDamage === null && plan.damaged.length > 0)
      firstDamage = plan.base + plan.damaged[0].afterFrames;
  }
  const actions: string[] = [];
  const act = (line: string, change: () => void): void => {
    actions.push(dryRun ? `would ${line}` : line);
    if (!dryRun) change();
  };
  if (!dryRun && firstDamage !== null) mkdirSync(aside, { recursive: true });
  for (const plan of plans) {
    if (plan.damaged.length === 0) continue;
    for (const region of plan.damaged) {
      const file = `${plan.name}.${region.position}.damaged`;
      act(
        `move bytes ${region.position}..${region.position + region.bytes.length - 1} of log/${plan.name} ` +
          `(${region.bytes.length} bytes, after its ${region.afterFrames} valid frames) to salvage/${file}`,
        () => writeDurably(join(aside, file), [region.bytes]),
      );
    }
    act(`keep the ${plan.frames.length} valid frames of log/${plan.name}`, () => {
      syncDirectory(aside);
      const tmp = join(logDir, `${plan.name}.salvage.tmp`);
      writeDurably(tmp, plan.frames);
      renameSync(tmp, join(logDir, plan.name));
      syncDirectory(logDir);
    });
  }
  for (const [index, plan] of plans.entries()) {
    const newest = index === plans.length - 1;
    if (plan.frames.length === 0 && !newest && plan.damaged.length > 0) {
      act(`remove log/${plan.name}: no valid frame left (its bytes are in salvage/)`, () => {
        unlinkSync(join(logDir, plan.name));
        syncDirectory(logDir);
      });
    } else if (plan.newBase !== plan.base) {
      const renamed = segmentFileName(plan.newBase);
      act(`rename log/${plan.name} to log/${renamed}: offsets stay contiguous`, () => {
        renameSync(join(logDir, plan.name), join(logDir, renamed));
        syncDirectory(logDir);
      });
    }
  }
  if (firstDamage !== null) {
    moveLaterCheckpoints(root, firstDamage, act);
    await setRingFilesAside(root, firstDamage, act);
  }
  const damaged = plans.flatMap((plan) => plan.damaged);
  return {
    actions,
    framesKept: plans.reduce((sum, plan) => sum + plan.frames.length, 0),
    damagedRegions: damaged.length,
    damagedBytes: damaged.reduce((sum, region) => sum + region.bytes.length, 0),
  };
}

/** Checkpoints after offset `firstDamage` count records in the numbering salvage changed. */
function moveLaterCheckpoints(
  root: string,
  firstDamage: number,
  act: (line: string, change: () => void) => void,
): void {
  if (!existsSync(join(root, 'checkpoints'))) return;
  const store = new CheckpointStore(root);
  const target = join(root, 'salvage', 'checkpoints');
  for (const offset of store.offsets()) {
    if (offset <= firstDamage) continue;
    const name = checkpointFileName(offset);
    act(
      `move checkpoints/${name} to salvage/checkpoints/: it counts offsets past the damage at ${firstDamage}`,
      () => {
        mkdirSync(target, { recursive: true });
        renameSync(join(store.dir, name), join(target, name));
        syncDirectory(store.dir);
        syncDirectory(target);
      },
    );
  }
}

/**
 * Ring files hold lines numbered before salvage: those past what the newest remaining checkpoint
 * records no longer match the log. The start would delete or cut them (a replay writes them again);
 * salvage keeps their bytes instead: a file no remaining checkpoint names moves to `salvage/rooms/`,
 * one the newest remaining checkpoint names is copied there whole, then cut to its recorded length.
 */
async function setRingFilesAside(
  root: string,
  firstDamage: number,
  act: (line: string, change: () => void) => void,
): Promise<void> {
  const rooms = join(root, 'rooms');
  if (!existsSync(rooms)) return;
  const store = existsSync(join(root, 'checkpoints')) ? new CheckpointStore(root) : null;
  const remaining = store?.headers().filter((header) => header.offset <= firstDamage) ?? [];
  let newest: Readonly<Record<string, number>> = {};
  for (const header of remaining) {
    const checkpoint = await store!.read(header.offset);
    if (checkpoint !== null) {
      newest = checkpoint.files;
      break;
    }
  }
  const named = new Set(remaining.flatMap((header) => Object.keys(header.files)));
  const target = join(root, 'salvage', 'rooms');
  for (const name of readdirSync(rooms)
    .filter((file) => file.endsWith('.jsonl'))
    .sort()) {
    const path = join(rooms, name);
    const length = newest[name];
    if (!named.has(name)) {
      act(
        `move rooms/${name} to salvage/rooms/: no remaining checkpoint names it (replay rebuilds it)`,
        () => {
          mkdirSync(target, { recursive: true });
          renameSync(path, join(target, name));
          syncDirectory(rooms);
          syncDirectory(target);
        },
      );
    } else if (length !== undefined && statSync(path).size > length) {
      act(
        `copy rooms/${name} to salvage/rooms/ and cut it to the ${length} bytes its checkpoint records`,
        () => {
          mkdirSync(target, { recursive: true });
          writeDurably(join(target, name), [readFileSync(path)]);
          syncDirectory(target);
          truncateSync(path, length);
          const fd = openSync(path, 'r+');
          try {
            fsyncSync(fd);
          } finally {
            closeSync(fd);
          }
        },
      );
    }
  }
}

function writeDurably(path: string, chunks: readonly Buffer[]): void {
  const fd = openSync(path, 'w');
  try {
    for (const chunk of chunks) {
      let written = 0;
      while (written < chunk.length) written += writeSync(fd, chunk, written, chunk.length - written);
    }
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function syncDirectory(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

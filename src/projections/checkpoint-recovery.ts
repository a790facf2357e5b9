import { Inject, Injectable, Logger } from '@nestjs/common';
import { EventLog } from '../log/event-log';
import { EVENT_LOG } from '../log/log.tokens';
import { CheckpointFiles } from './checkpoint-files';
import { CheckpointStore } from './checkpoint-store';
import { ProjectionRegistry } from './projection-registry';
import { Projection } from './projection';
import { RecoveryError } from './recovery.error';
import { SnapshotRestore } from './snapshot/snapshot-restore';

export { RecoveryError } from './recovery.error';

/** What start-up recovery checks against the newest intact checkpoint (null: none). */
export interface RecoveryInputs {
  readonly checkpoint: { readonly offset: number; readonly files: Readonly<Record<string, number>> } | null;
  readonly logFirstOffset: number;
  readonly logHead: number;
  /** A ring file's length in bytes, -1 when it is missing. */
  readonly sizeOf: (file: string) => number;
}

/**
 * Why a start would refuse to recover (empty: it recovers). One function for the service, which
 * refuses on the first reason before changing any file, and for `npm run verify`, which reports every
 * reason, so the verifier never calls OK a directory a start refuses (issue 24 item 3).
 */
export function recoveryRefusals(inputs: RecoveryInputs): string[] {
  const from = inputs.checkpoint?.offset ?? 0;
  if (inputs.logFirstOffset > from) {
    return [
      `the log starts at offset ${inputs.logFirstOffset} but the newest usable checkpoint is at ${from}: ` +
        `restore the missing checkpoint or log segments from backup`,
    ];
  }
  if (inputs.logHead < from) {
    return [
      `the checkpoint at offset ${from} is ahead of the log (head ${inputs.logHead}): the log lost ` +
        `records a checkpoint already covered; restore the log from backup`,
    ];
  }
  const refusals: string[] = [];
  for (const [file, length] of Object.entries(inputs.checkpoint?.files ?? {})) {
    const size = inputs.sizeOf(file);
    if (size >= length) continue;
    refusals.push(
      size < 0
        ? `ring file ${file} is missing, the checkpoint at ${from} needs ${length} bytes of it`
        : `ring file ${file} holds ${size} bytes, the checkpoint at ${from} needs ${length}`,
    );
  }
  return refusals;
}

/**
 * Start-up recovery of the read models: load the newest intact checkpoint, cut every ring file it
 * names back to the length it recorded (bytes past it were written after the checkpoint and will be
 * written again by replay), and delete ring files no kept checkpoint names. Returns the log offset
 * replay starts from. Every refusal comes before the first change to any file. With shared snapshots
 * (nats backend) a node that cannot replay from its own checkpoint first restores one (SnapshotRestore).
 */
@Injectable()
export class CheckpointRecovery {
  private readonly logger = new Logger('CheckpointRecovery');

  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    private readonly checkpoints: CheckpointStore,
    private readonly registry: ProjectionRegistry,
    private readonly snapshots: SnapshotRestore,
  ) {}

  /** The files checkpoints cover, as a feature registered them (rooms: the ring files). */
  private get files(): CheckpointFiles {
    return this.registry.checkpointFiles;
  }

  async restore(projections: readonly Projection[]): Promise<number> {
    this.checkpoints.removeTemporaries();
    await this.snapshots.restoreIfNeeded();
    const newest = await this.checkpoints.newestIntact();
    const from = newest?.offset ?? 0;
    // Every check before the first change: a refused start leaves every file as it found it.
    const refusals = recoveryRefusals({
      checkpoint: newest,
      logFirstOffset: this.log.firstOffset(),
      logHead: this.log.committedHead(),
      sizeOf: (file) => this.files.size(file),
    });
    if (refusals.length > 0) throw new RecoveryError(refusals.join('; '));
    this.setDamagedAside(newest?.offset ?? -1);
    const trusted = new Set(this.checkpoints.headers().flatMap((header) => Object.keys(header.files)));
    // Bytes past a checkpointed length come from records after `from`, which the log holds (checked
    // above): replay writes them again, so cutting them loses nothing.
    for (const [file, length] of Object.entries(newest?.files ?? {})) this.files.truncate(file, length);
    for (const file of this.files.list()) if (!trusted.has(file)) this.files.delete(file);
    for (const projection of projections) {
      if (newest && newest.projections[projection.name] !== undefined) {
        projection.restore(newest.projections[projection.name]);
      }
    }
    this.logger.log(
      newest ? `restored checkpoint at offset ${from}` : 'no checkpoint: replaying the whole log',
    );
    return from;
  }

  /**
   * Checkpoints newer than the one restored failed their seal: renamed to `<name>.damaged` (kept for
   * the operator, never deleted) so retention neither counts them as kept nor trusts the ring files
   * their header names. They hold only derived state: replay from the older checkpoint rebuilds it.
   */
  private setDamagedAside(restored: number): void {
    for (const offset of this.checkpoints.offsets()) {
      if (offset <= restored) break;
      const aside = this.checkpoints.setAside(offset);
      this.logger.warn(
        `checkpoint at offset ${offset} is damaged: kept as ${aside}, replaying from ${restored}`,
      );
    }
  }
}

import { Inject, Injectable, Logger } from '@nestjs/common';
import { EventLog } from '../log/event-log';
import { EVENT_LOG } from '../log/log.tokens';
import { CheckpointFiles } from './checkpoint-files';
import { CheckpointStore } from './checkpoint-store';
import { ProjectionRegistry } from './projection-registry';
import { Projection } from './projection';

/** The data directory does not hold a state this build can recover to. */
export class RecoveryError extends Error {}

/**
 * Why a start would refuse the ring files a checkpoint names: each file must hold at least the length
 * the checkpoint recorded (-1: missing). Shared with `npm run verify`, which reports what a start
 * would refuse.
 */
export function ringFileShortfalls(
  files: Readonly<Record<string, number>>,
  sizeOf: (file: string) => number,
): string[] {
  const short: string[] = [];
  for (const [file, length] of Object.entries(files)) {
    const size = sizeOf(file);
    if (size < length) {
      short.push(
        size < 0
          ? `ring file ${file} is missing, the checkpoint needs ${length} bytes of it`
          : `ring file ${file} holds ${size} bytes, the checkpoint needs ${length}`,
      );
    }
  }
  return short;
}

/**
 * Start-up recovery of the read models: load the newest intact checkpoint, cut every ring file it
 * names back to the length it recorded (bytes past it were written after the checkpoint and will be
 * written again by replay), and delete ring files no kept checkpoint names. Returns the log offset
 * replay starts from. Every refusal comes before the first change to any file.
 */
@Injectable()
export class CheckpointRecovery {
  private readonly logger = new Logger('CheckpointRecovery');

  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    private readonly checkpoints: CheckpointStore,
    private readonly registry: ProjectionRegistry,
  ) {}

  /** The files checkpoints cover, as a feature registered them (rooms: the ring files). */
  private get files(): CheckpointFiles {
    return this.registry.checkpointFiles;
  }

  async restore(projections: readonly Projection[]): Promise<number> {
    this.checkpoints.removeTemporaries();
    const newest = await this.checkpoints.newestIntact();
    const from = newest?.offset ?? 0;
    if (this.log.firstOffset() > from) {
      throw new RecoveryError(
        `the log starts at offset ${this.log.firstOffset()} but the newest usable checkpoint is at ${from}: ` +
          `restore the missing checkpoint or log segments from backup`,
      );
    }
    if (this.log.committedHead() < from) {
      throw new RecoveryError(
        `the checkpoint at offset ${from} is ahead of the log (head ${this.log.committedHead()}): the log lost ` +
          `records a checkpoint already covered; restore the log from backup`,
      );
    }
    // Every check before the first change: a refused start leaves every file as it found it.
    const short = ringFileShortfalls(newest?.files ?? {}, (file) => this.files.size(file));
    if (short.length > 0) throw new RecoveryError(`${short.join('; ')} (checkpoint at ${from})`);
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

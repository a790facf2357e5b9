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

/**
 * Start-up recovery of the read models: load the newest intact checkpoint, cut every ring file it
 * names back to the length it recorded (bytes past it were written after the checkpoint and will be
 * written again by replay), and delete ring files no kept checkpoint names. Returns the log offset
 * replay starts from. With shared snapshots (nats backend) a node that cannot replay from its own
 * checkpoint first restores one (SnapshotRestore).
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
    const trusted = new Set(this.checkpoints.headers().flatMap((header) => Object.keys(header.files)));
    for (const [file, length] of Object.entries(newest?.files ?? {})) {
      const size = this.files.size(file);
      if (size < length) {
        throw new RecoveryError(
          `ring file ${file} holds ${size} bytes, the checkpoint at ${from} needs ${length}`,
        );
      }
      this.files.truncate(file, length);
    }
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
}

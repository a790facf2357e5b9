import { Inject, Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { Clock } from '../common/clock';
import { formatTimestamp } from '../common/timestamp';
import { EventLog } from '../log/event-log';
import { EVENT_LOG } from '../log/log.tokens';
import { RingFileStore } from '../rooms/ring/ring-file-store';
import { CheckpointStore } from './checkpoint-store';
import { Projection, PROJECTIONS } from './projection';
import { ProjectionRunner } from './projection-runner';

/**
 * Takes checkpoints: captures every projection's state at one log offset, makes the log and the ring
 * files durable up to it, writes the checkpoint atomically, then garbage-collects what no kept
 * checkpoint needs (older checkpoints, ring files, and — with log retention `compact` — log segments
 * before the oldest kept checkpoint). Triggered on a timer, after `checkpointEvents` events, and at
 * shutdown. One checkpoint at a time; a request while one runs joins it.
 */
@Injectable()
export class CheckpointService {
  private readonly logger = new Logger('CheckpointService');
  private inFlight: Promise<void> | null = null;
  private lastOffset = -1;
  private appliedAtLast = 0;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(PROJECTIONS) private readonly projections: Projection[],
    private readonly runner: ProjectionRunner,
    private readonly store: CheckpointStore,
    private readonly files: RingFileStore,
    private readonly clock: Clock,
  ) {
    runner.onBatchApplied(() => {
      if (this.runner.appliedCount - this.appliedAtLast >= this.config.checkpointEvents) void this.take();
    });
  }

  /** Takes a checkpoint unless nothing was applied since the last one. */
  take(): Promise<void> {
    if (this.inFlight) return this.inFlight;
    if (this.runner.nextOffset === this.lastOffset) return Promise.resolve();
    this.inFlight = this.write().finally(() => (this.inFlight = null));
    return this.inFlight;
  }

  private async write(): Promise<void> {
    const offset = this.runner.nextOffset;
    this.appliedAtLast = this.runner.appliedCount;
    const projections: Record<string, unknown> = {};
    const files: Record<string, number> = {};
    for (const projection of this.projections) {
      projections[projection.name] = projection.snapshot();
      for (const [file, length] of projection.referencedFiles?.() ?? []) files[file] = length;
    }
    await this.log.sync(); // under interval/none the checkpoint must never be ahead of the durable log
    await this.files.syncDirty();
    await this.store.write({
      version: 2,
      offset,
      createdAt: formatTimestamp(this.clock.nowMicros()),
      projections,
      files,
    });
    this.lastOffset = offset;
    await this.collectGarbage();
  }

  private async collectGarbage(): Promise<void> {
    const offsets = this.store.offsets();
    for (const old of offsets.slice(this.config.checkpointsKeep)) this.store.delete(old);
    const kept = this.store.headers();
    const needed = new Set(kept.flatMap((header) => Object.keys(header.files)));
    for (const projection of this.projections) {
      for (const file of projection.referencedFiles?.().keys() ?? []) needed.add(file);
    }
    for (const file of this.files.list()) if (!needed.has(file)) this.files.delete(file);
    const oldest = kept[kept.length - 1];
    if (this.config.logRetention === 'compact' && oldest !== undefined) {
      await this.log.truncateBefore(oldest.offset);
    }
  }
}

import { Inject, Injectable, Logger } from '@nestjs/common';
import { join } from 'node:path';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.tokens';
import { EventLog } from '../../log/event-log';
import { EVENT_LOG } from '../../log/log.tokens';
import { SnapshotEntry, SnapshotStore } from '../../log/snapshot-store';
import { CheckpointHeader, CheckpointStore, checkpointFileName } from '../checkpoint-store';
import { ProjectionRegistry } from '../projection-registry';
import { snapshotBytes } from './snapshot-format';

/**
 * Publishes shared snapshots (issue 27, docs/scaling.md): after a checkpoint, when the newest
 * snapshot in the shared store is CHAT_SNAPSHOT_EVERY_EVENTS records or CHAT_SNAPSHOT_SECONDS old,
 * this node streams its checkpoint and the ring bytes it names into the store, keeps the newest
 * CHAT_SNAPSHOTS_KEEP, and lets the log drop what the oldest kept one covers (CHAT_NATS_RETENTION).
 *
 * Who takes one: any node that finds one due (docs/decisions.md). Off the write path: the bytes are
 * read from the files of a checkpoint already on disk (ring files are append-only past the lengths
 * it records), asynchronously; until the upload ends that checkpoint and its ring files are pinned,
 * so checkpoint garbage collection leaves them alone. One snapshot at a time per node.
 */
@Injectable()
export class SnapshotPublisher {
  private readonly logger = new Logger('Snapshots');
  private pin: CheckpointHeader | null = null;
  private done: Promise<void> = Promise.resolve();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(EVENT_LOG) private readonly log: EventLog,
    private readonly checkpoints: CheckpointStore,
    private readonly registry: ProjectionRegistry,
  ) {}

  /** The checkpoint a snapshot in progress reads from, or null: garbage collection keeps it. */
  get pinned(): CheckpointHeader | null {
    return this.pin;
  }

  /** Resolves when the snapshot in progress (if any) ended, published or not (tests, shutdown). */
  settled(): Promise<void> {
    return this.done;
  }

  /** A checkpoint was written: start a snapshot of it in the background if one is due. */
  checkpointWritten(header: CheckpointHeader): void {
    const store = this.log.snapshotStore?.();
    if (store === undefined || this.pin !== null || this.config.snapshotSeconds === 0) return;
    this.pin = header;
    this.done = this.publishIfDue(store, header)
      .catch((error: unknown) =>
        this.logger.warn(`snapshot at offset ${header.offset} failed: ${(error as Error).message}`),
      )
      .finally(() => (this.pin = null));
  }

  private async publishIfDue(store: SnapshotStore, header: CheckpointHeader): Promise<void> {
    const newest = (await store.list())[0];
    if (newest !== undefined && !this.due(newest, header.offset)) return;
    const started = performance.now();
    const files = this.registry.checkpointFiles;
    await store.put(
      header.offset,
      snapshotBytes({
        offset: header.offset,
        createdAt: header.createdAt,
        checkpointPath: join(this.checkpoints.dir, checkpointFileName(header.offset)),
        files: header.files,
        ringPath: (file) => files.path(file),
      }),
    );
    this.logger.log(
      `published snapshot at offset ${header.offset} to ${store.where} (${Object.keys(header.files).length} ` +
        `ring files, ${Math.round(performance.now() - started)} ms)`,
    );
    await this.prune(store);
  }

  private due(newest: SnapshotEntry, offset: number): boolean {
    if (offset <= newest.offset) return false;
    return (
      offset - newest.offset >= this.config.snapshotEveryEvents ||
      Date.now() - newest.storedAt >= this.config.snapshotSeconds * 1000
    );
  }

  /**
   * Keeps the newest CHAT_SNAPSHOTS_KEEP; once that many exist, the log may drop records below the
   * oldest kept. Not before: the first snapshot of a stream is taken at the first checkpoint, and
   * purging below it at once would leave no history for a node that lags (a fault, a slow tail) to
   * catch up from. With the full set, the stream holds at least KEEP − 1 snapshot intervals.
   */
  private async prune(store: SnapshotStore): Promise<void> {
    const entries = await store.list();
    for (const old of entries.slice(this.config.snapshotsKeep)) await store.delete(old.name);
    const kept = entries.slice(0, this.config.snapshotsKeep);
    if (kept.length === this.config.snapshotsKeep) await this.log.purgeBefore?.(kept[kept.length - 1].offset);
  }
}

import { Inject, Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.tokens';
import { EventLog } from '../../log/event-log';
import { EVENT_LOG } from '../../log/log.tokens';
import { SnapshotEntry, SnapshotStore } from '../../log/snapshot-store';
import { CheckpointStore } from '../checkpoint-store';
import { RecoveryError } from '../recovery.error';
import { ProjectionRegistry } from '../projection-registry';
import { syncPaths } from '../../storage/sync-paths';
import { clearRestorePending, installSnapshot, restorePending } from './snapshot-install';

/**
 * Joining from a shared snapshot (issue 27): before start-up recovery, a node whose CHAT_ROOT holds
 * no checkpoint, or only one the stream no longer reaches (purged below it), or one more than
 * CHAT_SNAPSHOT_EVERY_EVENTS behind the newest snapshot, restores the newest intact snapshot: its
 * checkpoint and ring files are unpacked into a staging directory, checked against the snapshot's
 * SHA-256, and only then renamed into place (made durable in the background while the node already
 * serves: a start that finds that unfinished drops its checkpoints and restores again, see
 * snapshot-install.ts); recovery then loads that checkpoint and replays the
 * stream from its offset. A damaged snapshot is skipped with a log line and the next older one
 * tried; when none covers the gap to the stream's first record the node refuses to start, naming it.
 */
@Injectable()
export class SnapshotRestore {
  private readonly logger = new Logger('Snapshots');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(EVENT_LOG) private readonly log: EventLog,
    private readonly checkpoints: CheckpointStore,
    private readonly registry: ProjectionRegistry,
  ) {}

  async restoreIfNeeded(): Promise<void> {
    if (restorePending(this.config.root)) await this.forgetUnfinishedRestore();
    const store = this.log.snapshotStore?.();
    // CHAT_SNAPSHOT_SECONDS=0: this node neither takes nor restores snapshots (it replays, or refuses).
    if (store === undefined || this.config.snapshotSeconds === 0) return;
    const local = this.checkpoints.headers()[0]?.offset;
    const first = this.log.firstOffset();
    const entries = (await store.list()).filter(
      (e) => e.offset >= first && e.offset <= this.log.committedHead(),
    );
    const reachable = local !== undefined && local >= first;
    if (
      reachable &&
      (entries[0] === undefined || entries[0].offset - local < this.config.snapshotEveryEvents)
    ) {
      return;
    }
    for (const entry of entries) {
      if (await this.restore(store, entry)) return;
    }
    if (reachable || (local === undefined && first === 0)) return; // the stream still holds every record needed
    throw new RecoveryError(
      `cannot catch up: the stream starts at offset ${first}, this node's newest checkpoint is ` +
        `${local === undefined ? 'none' : `at ${local}`}, and ${store.where} holds no intact snapshot at or ` +
        `after offset ${first}: restore a snapshot covering offsets ${local ?? 0}..${first} (or the stream) from backup`,
    );
  }

  /**
   * The last start restored a snapshot and stopped before its files were all on disk: none of the
   * checkpoints here can be trusted (every later one names those files too), so they go, and this
   * start restores again (or replays) as from an empty directory.
   */
  private async forgetUnfinishedRestore(): Promise<void> {
    this.logger.warn(
      'the snapshot restored at the last start was not on disk yet when the node stopped: ' +
        'its checkpoints are dropped and a snapshot is restored again',
    );
    for (const offset of this.checkpoints.offsets()) this.checkpoints.delete(offset);
    await syncPaths([this.checkpoints.dir]);
    await clearRestorePending(this.config.root);
  }

  /** Installs one snapshot; false (logged) when it is damaged, gone or unreadable. */
  private async restore(store: SnapshotStore, entry: SnapshotEntry): Promise<boolean> {
    const started = performance.now();
    try {
      const bytes = await store.get(entry.name);
      if (bytes === null) return false;
      const received = { bytes: 0, lastAt: started };
      const files = this.registry.checkpointFiles;
      const installed = await installSnapshot(
        counted(bytes, received),
        {
          root: this.config.root,
          checkpointsDir: this.checkpoints.dir,
          ringPath: (file) => files.path(file),
        },
        true,
      );
      if (installed === null || installed.header.offset !== entry.offset) {
        // Named for another offset: its files moved in; the next one tried must not race their sync.
        await installed?.durable;
        this.logger.warn(
          `snapshot ${entry.name} in ${store.where} is damaged (SHA-256 mismatch): skipped, trying an older one`,
        );
        return false;
      }
      const { header, durable } = installed;
      const ms = (at: number): number => Math.round(at - started);
      this.logger.log(
        `restored snapshot at offset ${header.offset} from ${store.where} (${Object.keys(header.files).length} ` +
          `ring files, ${(received.bytes / 1e6).toFixed(1)} MB received and unpacked in ${ms(received.lastAt)} ms, ` +
          `in place ${ms(performance.now()) - ms(received.lastAt)} ms later, ${ms(performance.now())} ms); ` +
          'replaying the stream from there',
      );
      durable.then(
        () =>
          this.logger.log(`restored snapshot on disk ${ms(performance.now())} ms after the restore began`),
        (error: unknown) =>
          this.logger.warn(
            `restored snapshot not made durable (${(error as Error).message}): the next start restores again`,
          ),
      );
      return true;
    } catch (error) {
      this.logger.warn(
        `snapshot ${entry.name} in ${store.where} unusable: ${(error as Error).message}; skipped`,
      );
      return false;
    }
  }
}

/** The bytes as they pass, counted, and when the last arrived (the restore's log line splits its time there). */
async function* counted(
  bytes: AsyncIterable<Uint8Array>,
  received: { bytes: number; lastAt: number },
): AsyncGenerator<Uint8Array> {
  for await (const chunk of bytes) {
    received.bytes += chunk.length;
    yield chunk;
    received.lastAt = performance.now();
  }
}

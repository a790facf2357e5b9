import {
  Global,
  Logger,
  Inject,
  Module,
  OnApplicationBootstrap,
  OnApplicationShutdown,
  BeforeApplicationShutdown,
} from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { EventLog } from '../log/event-log';
import { EVENT_LOG } from '../log/log.tokens';
import { RingFileStore } from '../rooms/ring/ring-file-store';
import { TailCache } from '../rooms/ring/tail-cache';
import { ListingProjection } from '../listing/listing.projection';
import { WindowLoader } from '../listing/window-loader';
import { NotesProjection } from '../notes/notes.projection';
import { RoomsProjection } from '../rooms/rooms.projection';
import { ChangeNotifier } from './change-notifier';
import { CheckpointRecovery } from './checkpoint-recovery';
import { CheckpointStore } from './checkpoint-store';
import { CheckpointService } from './checkpoint.service';
import { ConflictRetry } from './conflict-retry';
import { EventWriter } from './event-writer';
import { PROJECTIONS } from './projection';
import { ProjectionRunner } from './projection-runner';
import { ServiceHealth } from './service-health';

/**
 * Read models and their upkeep: every projection, the runner that feeds them from the log, the
 * checkpoints that bound replay. Global because every feature reads some read model.
 */
@Global()
@Module({
  providers: [
    { provide: RingFileStore, inject: [APP_CONFIG], useFactory: (c: AppConfig) => new RingFileStore(c.root) },
    {
      provide: TailCache,
      inject: [APP_CONFIG],
      useFactory: (c: AppConfig) => new TailCache(c.hotTailMb * 1024 * 1024),
    },
    {
      provide: CheckpointStore,
      inject: [APP_CONFIG],
      useFactory: (c: AppConfig) => new CheckpointStore(c.root),
    },
    RoomsProjection,
    NotesProjection,
    ListingProjection,
    WindowLoader,
    {
      provide: PROJECTIONS,
      // Listing last: it reads the rooms metadata each event has just produced.
      inject: [RoomsProjection, NotesProjection, ListingProjection],
      useFactory: (rooms: RoomsProjection, notes: NotesProjection, listing: ListingProjection) => [
        rooms,
        notes,
        listing,
      ],
    },
    ChangeNotifier,
    CheckpointRecovery,
    ProjectionRunner,
    CheckpointService,
    ServiceHealth,
    ConflictRetry,
    EventWriter,
  ],
  exports: [
    ConflictRetry,
    EventWriter,
    ServiceHealth,
    RingFileStore,
    TailCache,
    RoomsProjection,
    NotesProjection,
    ListingProjection,
    ChangeNotifier,
    ProjectionRunner,
    CheckpointService,
  ],
})
export class ProjectionsModule
  implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown
{
  private timer: NodeJS.Timeout | null = null;
  private readonly logger = new Logger('Shutdown');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(EVENT_LOG) private readonly log: EventLog,
    private readonly runner: ProjectionRunner,
    private readonly checkpoints: CheckpointService,
    private readonly notifier: ChangeNotifier,
    private readonly files: RingFileStore,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.runner.start();
    this.timer = setInterval(() => this.checkpoints.takeScheduled(), this.config.checkpointSeconds * 1000);
    this.timer.unref();
  }

  /** Long-polls answer at once so the HTTP server can drain. */
  beforeApplicationShutdown(): void {
    this.notifier.releaseAll();
  }

  /**
   * After the server stopped taking requests: checkpoint, then close the log (flush + fsync), and say
   * so in one line. A failed final checkpoint does not stop the log from closing: the next start
   * replays from the previous checkpoint instead.
   */
  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.checkpoints.stopRetrying();
    this.runner.stop();
    let checkpointNote = '';
    try {
      await this.checkpoints.take();
    } catch (error) {
      checkpointNote = ` (final checkpoint failed: ${(error as Error).message})`;
    }
    try {
      await this.log.close();
    } finally {
      this.files.close();
      this.logger.log(
        `stopped: event log flushed and synced through offset ${this.log.committedHead()}, ring files ` +
          `synced, last checkpoint at offset ${this.checkpoints.lastCheckpointOffset}${checkpointNote}`,
      );
    }
  }
}

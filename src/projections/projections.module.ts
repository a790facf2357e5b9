import {
  DynamicModule,
  Global,
  Logger,
  Inject,
  Module,
  OnApplicationBootstrap,
  BeforeApplicationShutdown,
} from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { EventLog } from '../log/event-log';
import { LogLifecycle } from '../log/log-lifecycle';
import { EVENT_LOG } from '../log/log.tokens';
import { ChangeNotifier } from './change-notifier';
import { CheckpointRecovery } from './checkpoint-recovery';
import { CheckpointStore } from './checkpoint-store';
import { CheckpointService } from './checkpoint.service';
import { PROJECTIONS } from './projection';
import { projectionFeature, ProjectionFeature } from './projection-feature';
import { ProjectionRegistry } from './projection-registry';
import { ProjectionRunner } from './projection-runner';
import { ServiceHealth } from './service-health';
import { SnapshotPublisher } from './snapshot/snapshot-publisher';
import { SnapshotRestore } from './snapshot/snapshot-restore';
import { RuntimeModule } from '../runtime/runtime.module';

/**
 * The upkeep of the read models: the registry the features' projections join (`forFeature`), the
 * runner that feeds them from the log, and the checkpoints that bound replay. Global because every
 * feature registers a read model, and the writers (src/write) await the runner.
 */
@Global()
@Module({
  // ServiceHealth reports event-loop stalls; the replay tool builds this module without the app's.
  imports: [RuntimeModule],
  providers: [
    { provide: ProjectionRegistry, useFactory: () => new ProjectionRegistry() },
    // The live array of the registry: every registered projection, in apply order.
    {
      provide: PROJECTIONS,
      inject: [ProjectionRegistry],
      useFactory: (r: ProjectionRegistry) => r.projections,
    },
    {
      provide: CheckpointStore,
      inject: [APP_CONFIG],
      useFactory: (c: AppConfig) => new CheckpointStore(c.root),
    },
    ChangeNotifier,
    SnapshotRestore,
    SnapshotPublisher,
    CheckpointRecovery,
    ProjectionRunner,
    CheckpointService,
    ServiceHealth,
  ],
  exports: [ProjectionRegistry, ServiceHealth, ChangeNotifier, ProjectionRunner, CheckpointService],
})
export class ProjectionsModule implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private timer: NodeJS.Timeout | null = null;
  private readonly logger = new Logger('Shutdown');
  private checkpointNote = '';

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(EVENT_LOG) private readonly log: EventLog,
    private readonly runner: ProjectionRunner,
    private readonly checkpoints: CheckpointService,
    private readonly notifier: ChangeNotifier,
    private readonly registry: ProjectionRegistry,
    lifecycle: LogLifecycle,
  ) {
    // The log module closes the log; the read models finish with it open and report once it closed.
    lifecycle.onClose({ beforeClose: () => this.finalCheckpoint(), afterClose: () => this.stopped() });
  }

  /**
   * A feature's read model, registered with the runner and the checkpoints: its projections, each
   * with its declared place in the apply order, and the files its checkpoint part names (see
   * projection-feature.ts). The projections layer imports no feature: the features call this.
   */
  static forFeature(feature: ProjectionFeature): DynamicModule {
    return projectionFeature(feature);
  }

  async onApplicationBootstrap(): Promise<void> {
    this.registry.assertOrder();
    await this.runner.start();
    this.timer = setInterval(() => this.checkpoints.takeScheduled(), this.config.checkpointSeconds * 1000);
    this.timer.unref();
  }

  /** Long-polls answer at once so the HTTP server can drain. */
  beforeApplicationShutdown(): void {
    this.notifier.releaseAll();
  }

  /**
   * Before the log closes, after the server stopped taking requests: stop applying and checkpoint. A
   * failed final checkpoint does not keep the log open: the next start replays from the previous one.
   */
  private async finalCheckpoint(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.checkpoints.stopRetrying();
    this.runner.stop();
    try {
      await this.checkpoints.take();
    } catch (error) {
      this.checkpointNote = ` (final checkpoint failed: ${(error as Error).message})`;
    }
  }

  /** Once the log closed (flush + fsync): release the checkpoint files and say so in one line. */
  private stopped(): void {
    let filesNote = 'checkpoint files closed';
    try {
      this.registry.checkpointFiles.close();
    } catch (error) {
      filesNote = `checkpoint files not all written (${(error as Error).message}); the next start rewrites them from the log`;
    }
    this.logger.log(
      `stopped: event log flushed and synced through offset ${this.log.committedHead()}, ${filesNote}, ` +
        `last checkpoint at offset ${this.checkpoints.lastCheckpointOffset}${this.checkpointNote}`,
    );
  }
}

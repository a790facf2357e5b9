import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { EventLoopWatch, Stall } from './event-loop-watch';

/**
 * The process's event-loop stall detector (EventLoopWatch) with the application's lifetime: it starts
 * once the application is built (start-up work such as a long replay is not a stall of the serving
 * loop) and stops at shutdown. Its lines go to the service log unless CHAT_LOG_LEVEL is silent.
 */
@Injectable()
export class EventLoopWatchService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly watch: EventLoopWatch;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.watch = new EventLoopWatch({
      thresholdMs: config.eventLoopStallMs,
      fd: config.logLevel === 'silent' ? -1 : 1,
    });
  }

  onApplicationBootstrap(): void {
    this.watch.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.watch.stop();
  }

  /** The stall /healthz reports now, if any. */
  recent(): Stall | undefined {
    return this.watch.recent();
  }

  /** Stalls since start (chat_event_loop_stalls_total). */
  get stalls(): number {
    return this.watch.stalls;
  }
}

import { DynamicModule, Logger, Module, OnApplicationShutdown, Provider } from '@nestjs/common';
import { join } from 'node:path';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { EventLog } from './event-log';
import { SegmentedEventLog } from './file/segmented-event-log';
import { EVENT_LOG } from './log.tokens';
import { JetStreamEventLog } from './nats/jetstream-event-log';
import { natsLogOptionsFrom } from './nats/nats-log.config';
import { COMMIT_OBSERVER, CommitObserver, IGNORE_COMMITS } from './file/commit-observer';
import { LogLifecycle } from './log-lifecycle';
import { LOG_INSTRUMENTATION, LogInstrumentation } from './log-instrumentation';

/** Opens the event log backend (recovering its tail) before anything that reads or writes it starts. */
async function openLog(
  config: AppConfig,
  observer: CommitObserver = IGNORE_COMMITS,
  instrumentation?: LogInstrumentation,
): Promise<EventLog> {
  const logger = new Logger('EventLog');
  const sink = {
    log: (m: string) => logger.log(m),
    warn: (m: string) => logger.warn(m),
    error: (m: string) => logger.error(m),
  };
  const log: EventLog =
    config.logBackend === 'nats'
      ? new JetStreamEventLog(natsLogOptionsFrom(config, sink))
      : fileLog(config, sink, instrumentation?.commits(observer) ?? observer);
  await log.open();
  return instrumentation?.wrap(log, config.logBackend) ?? log;
}

function fileLog(
  config: AppConfig,
  logger: { log(m: string): void; warn(m: string): void },
  observer: CommitObserver,
): EventLog {
  return new SegmentedEventLog({
    dir: join(config.root, 'log'),
    segmentBytes: config.logSegmentBytes,
    fsync: config.fsync,
    fsyncIntervalMs: config.fsyncIntervalMs,
    logger,
    observer,
  });
}

const lifecycle: Provider = {
  provide: LogLifecycle,
  inject: [EVENT_LOG],
  useFactory: (log: EventLog) => new LogLifecycle(log),
};

/**
 * The event log and its lifecycle (log-lifecycle.ts): opened by the provider, closed at application
 * shutdown after the steps its users registered (the projections' final checkpoint). Global: every
 * layer that appends or reads records injects EVENT_LOG.
 */
@Module({})
export class LogModule implements OnApplicationShutdown {
  constructor(private readonly lifecycle: LogLifecycle) {}

  /** The service: the backend the configuration names, opened before anything that uses it. */
  static forRoot(): DynamicModule {
    return {
      module: LogModule,
      global: true,
      providers: [
        {
          provide: EVENT_LOG,
          // The metrics module fills the observer port; without it the log's timings are ignored. The
          // tracing module fills the instrumentation port only when tracing is on.
          inject: [
            APP_CONFIG,
            { token: COMMIT_OBSERVER, optional: true },
            { token: LOG_INSTRUMENTATION, optional: true },
          ],
          useFactory: openLog,
        },
        lifecycle,
      ],
      exports: [EVENT_LOG, LogLifecycle],
    };
  }

  /** A log the caller opened (the replay tool's target), closed the same way at shutdown. */
  static forLog(log: EventLog): DynamicModule {
    return {
      module: LogModule,
      global: true,
      providers: [
        // A factory, not useValue: Nest would hash the whole live log object into the module's key.
        { provide: EVENT_LOG, useFactory: () => log },
        lifecycle,
      ],
      exports: [EVENT_LOG, LogLifecycle],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.lifecycle.close();
  }
}

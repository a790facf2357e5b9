import { Global, Logger, Module } from '@nestjs/common';
import { join } from 'node:path';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { EventLog } from './event-log';
import { SegmentedEventLog } from './file/segmented-event-log';
import { EVENT_LOG } from './log.tokens';
import { JetStreamEventLog } from './nats/jetstream-event-log';
import { natsLogOptionsFrom } from './nats/nats-log.config';
import { COMMIT_OBSERVER, CommitObserver, IGNORE_COMMITS } from './file/commit-observer';

/** Opens the event log backend (recovering its tail) before anything that reads or writes it starts. */
async function openLog(config: AppConfig, observer: CommitObserver = IGNORE_COMMITS): Promise<EventLog> {
  const logger = new Logger('EventLog');
  const sink = { log: (m: string) => logger.log(m), warn: (m: string) => logger.warn(m) };
  const log: EventLog =
    config.logBackend === 'nats'
      ? new JetStreamEventLog(natsLogOptionsFrom(config, sink))
      : fileLog(config, sink, observer);
  await log.open();
  return log;
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

@Global()
@Module({
  providers: [
    {
      provide: EVENT_LOG,
      // The metrics module fills the observer port; without it the log's timings are ignored.
      inject: [APP_CONFIG, { token: COMMIT_OBSERVER, optional: true }],
      useFactory: openLog,
    },
  ],
  exports: [EVENT_LOG],
})
export class LogModule {}

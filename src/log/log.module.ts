import { Global, Logger, Module } from '@nestjs/common';
import { join } from 'node:path';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { EventLog } from './event-log';
import { SegmentedEventLog } from './file/segmented-event-log';
import { EVENT_LOG } from './log.tokens';

/** Opens the event log backend (recovering its tail) before anything that reads or writes it starts. */
async function openLog(config: AppConfig): Promise<EventLog> {
  const logger = new Logger('EventLog');
  const log = new SegmentedEventLog({
    dir: join(config.root, 'log'),
    segmentBytes: config.logSegmentBytes,
    fsync: config.fsync,
    fsyncIntervalMs: config.fsyncIntervalMs,
    logger: { log: (m: string) => logger.log(m), warn: (m: string) => logger.warn(m) },
  });
  await log.open();
  return log;
}

@Global()
@Module({
  providers: [{ provide: EVENT_LOG, inject: [APP_CONFIG], useFactory: openLog }],
  exports: [EVENT_LOG],
})
export class LogModule {}

import { Global, Module } from '@nestjs/common';
import { EventLoopWatchService } from './event-loop-watch.service';

/** The process itself: the event-loop stall detector /healthz and the metrics read. */
@Global()
@Module({
  providers: [EventLoopWatchService],
  exports: [EventLoopWatchService],
})
export class RuntimeModule {}

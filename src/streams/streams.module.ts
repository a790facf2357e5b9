import { Module } from '@nestjs/common';
import { RoomsModule } from '../rooms/rooms.module';
import { StreamsController } from './http/streams.controller';
import { WatchController } from './http/watch.controller';
import { WatchPresenter } from './http/watch.presenter';
import { RoomSteps } from './room-steps';
import { StreamRegistry } from './sse/stream-registry';
import { StreamService } from './sse/stream.service';
import { WatchService } from './watch/watch.service';

/**
 * Reading many rooms over one connection: GET /watch (a multi-room long-poll) and the event streams
 * (SSE) for one room and for a set of rooms. Read-only: everything comes from the rooms read model
 * and the change notifier; nothing here writes.
 */
@Module({
  imports: [RoomsModule],
  controllers: [WatchController, StreamsController],
  providers: [RoomSteps, WatchService, WatchPresenter, StreamService, StreamRegistry],
  exports: [WatchService, StreamRegistry],
})
export class StreamsModule {}

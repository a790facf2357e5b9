import { Module } from '@nestjs/common';
import { RoomPresenter } from './http/room.presenter';
import { OwnershipModule } from '../ownership/ownership.module';
import { MessageAdmissions } from './message-admission';
import { MessageLanesService } from './message-lanes.service';
import { MessageIdempotency } from './idempotency/message-idempotency';
import { RoomExportService } from './room-export.service';
import { RoomHistory } from './room-history';
import { RoomReadService } from './room-read.service';
import { RoomReaperService } from './room-reaper.service';
import { RoomWriteGate } from './room-write-gate';
import { RoomWriteModel } from './room-write.model';
import { RoomWriteService } from './room-write.service';
import { RoomsReadModelModule } from './rooms-read-model.module';
import { RoomsController } from './http/rooms.controller';
import { SignedMessageLaneService } from './signed-message-lane.service';
import { RoomHeadService } from './chain/room-head.service';

/** Rooms: its read model, reads, long-polls, the unsigned and signed message lanes, export, signed heads and the reaper. */
@Module({
  imports: [RoomsReadModelModule, OwnershipModule],
  controllers: [RoomsController],
  providers: [
    RoomWriteModel,
    RoomWriteService,
    RoomWriteGate,
    MessageAdmissions,
    RoomReadService,
    RoomHistory,
    MessageIdempotency,
    MessageLanesService,
    SignedMessageLaneService,
    RoomExportService,
    RoomHeadService,
    RoomReaperService,
    RoomPresenter,
  ],
  exports: [
    RoomsReadModelModule,
    RoomWriteService,
    RoomReadService,
    RoomHistory,
    RoomWriteModel,
    RoomWriteGate,
    MessageLanesService,
    SignedMessageLaneService,
    RoomHeadService,
  ],
})
export class RoomsModule {}

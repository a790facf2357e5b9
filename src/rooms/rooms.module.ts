import { Module } from '@nestjs/common';
import { RoomPresenter } from '../http/room.presenter';
import { MessageLanesService } from './message-lanes.service';
import { RoomExportService } from './room-export.service';
import { RoomReadService } from './room-read.service';
import { RoomReaperService } from './room-reaper.service';
import { RoomWriteGate } from './room-write-gate';
import { RoomWriteModel } from './room-write-model';
import { RoomWriteService } from './room-write.service';
import { RoomsController } from './rooms.controller';
import { SignedMessageLaneService } from './signed-message-lane.service';

/** Rooms: reads, long-polls, the unsigned write lanes, export and the reaper. */
@Module({
  controllers: [RoomsController],
  providers: [
    RoomWriteModel,
    RoomWriteService,
    RoomWriteGate,
    RoomReadService,
    MessageLanesService,
    SignedMessageLaneService,
    RoomExportService,
    RoomReaperService,
    RoomPresenter,
  ],
  exports: [RoomWriteService, RoomReadService, RoomWriteModel, RoomWriteGate],
})
export class RoomsModule {}

import { Module } from '@nestjs/common';
import { NotesPresenter } from './http/notes.presenter';
import { RoomsModule } from '../rooms/rooms.module';
import { NamespaceGate } from './namespace-gate';
import { NoteLanesService } from './note-lanes.service';
import { NoteReadService } from './note-read.service';
import { NoteStateModule } from './note-state.module';
import { NoteWriteService } from './note-write.service';
import { NotesReadModelModule } from './notes-read-model.module';
import { NotesController } from './http/notes.controller';
import { NotesReaperService } from './notes-reaper.service';
import { SignedNoteLaneService } from './signed-note-lane.service';

/** Notes: its read model, reads, listings, the unsigned and signed write lanes, ownership notes and the reaper. */
@Module({
  imports: [NotesReadModelModule, RoomsModule, NoteStateModule],
  controllers: [NotesController],
  providers: [
    NoteWriteService,
    NamespaceGate,
    NoteReadService,
    NoteLanesService,
    SignedNoteLaneService,
    NotesReaperService,
    NotesPresenter,
  ],
  exports: [NotesReadModelModule, NoteWriteService, NoteReadService, NoteLanesService],
})
export class NotesModule {}

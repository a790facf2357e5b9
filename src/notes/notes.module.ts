import { Module } from '@nestjs/common';
import { NotesPresenter } from './http/notes.presenter';
import { OwnershipModule } from '../ownership/ownership.module';
import { NoteIdempotency } from './idempotency/note-idempotency';
import { NoteLanesService } from './note-lanes.service';
import { NoteReadService } from './note-read.service';
import { NoteWriteModel } from './note-write.model';
import { NoteWriteService } from './note-write.service';
import { NotesReadModelModule } from './notes-read-model.module';
import { NotesController } from './http/notes.controller';
import { NotesReaperService } from './notes-reaper.service';
import { SignedNoteLaneService } from './signed-note-lane.service';

/** Notes: its read model, reads, listings, the unsigned and signed write lanes and the reaper (ownership rules: OwnershipModule). */
@Module({
  imports: [NotesReadModelModule, OwnershipModule],
  controllers: [NotesController],
  providers: [
    NoteWriteModel,
    NoteWriteService,
    NoteReadService,
    NoteIdempotency,
    NoteLanesService,
    SignedNoteLaneService,
    NotesReaperService,
    NotesPresenter,
  ],
  exports: [
    NotesReadModelModule,
    NoteWriteModel,
    NoteWriteService,
    NoteReadService,
    NoteLanesService,
    SignedNoteLaneService,
  ],
})
export class NotesModule {}

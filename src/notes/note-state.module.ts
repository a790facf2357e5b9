import { Module } from '@nestjs/common';
import { NoteWriteModel } from './note-write.model';
import { NotesReadModelModule } from './notes-read-model.module';
import { RoomOwnership } from './room-ownership';

/**
 * The note write state both features decide on: NotesModule's lanes and the rooms' write gate (owned
 * rooms). Its own module so RoomsModule can import it without importing NotesModule, which imports
 * RoomsModule for the room heads a claim checks.
 */
@Module({
  imports: [NotesReadModelModule],
  providers: [NoteWriteModel, RoomOwnership],
  exports: [NoteWriteModel, RoomOwnership],
})
export class NoteStateModule {}

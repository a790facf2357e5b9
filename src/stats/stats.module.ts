import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module';
import { NotesReadModelModule } from '../notes/notes-read-model.module';
import { RoomsReadModelModule } from '../rooms/rooms-read-model.module';
import { StatsController } from './http/stats.controller';

/** GET /stats, token-gated operator aggregates (contract §15.6). */
@Module({
  imports: [AccessModule, RoomsReadModelModule, NotesReadModelModule],
  controllers: [StatsController],
})
export class StatsModule {}

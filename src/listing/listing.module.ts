import { Module } from '@nestjs/common';
import { ListingPresenter } from './http/listing.presenter';
import { ListingController } from './http/listing.controller';
import { NotesReadModelModule } from '../notes/notes-read-model.module';
import { RoomsReadModelModule } from '../rooms/rooms-read-model.module';
import { ListingReadModelModule } from './listing-read-model.module';
import { ListingService } from './listing.service';

/**
 * Discovery of rooms: GET /rooms. Its read model, ListingProjection, registers itself with the
 * projections layer (listing-read-model.module.ts), applied after the rooms projection it reads; the
 * service also reads the rooms and notes read models.
 */
@Module({
  imports: [ListingReadModelModule, RoomsReadModelModule, NotesReadModelModule],
  controllers: [ListingController],
  providers: [ListingService, ListingPresenter],
  exports: [ListingService],
})
export class ListingModule {}

import { Module } from '@nestjs/common';
import { ListingPresenter } from './http/listing.presenter';
import { ListingController } from './http/listing.controller';
import { ListingService } from './listing.service';

/**
 * Discovery of rooms: GET /rooms. Its read model, ListingProjection, is registered with the other
 * projections (src/projections/projections.module.ts) because the runner must apply it after the rooms
 * projection it reads.
 */
@Module({
  controllers: [ListingController],
  providers: [ListingService, ListingPresenter],
  exports: [ListingService],
})
export class ListingModule {}

import { ProjectionsModule } from '../projections/projections.module';
import { RoomsReadModelModule } from '../rooms/rooms-read-model.module';
import { ListingProjection } from './listing.projection';
import { WindowLoader } from './window-loader';

/** Where the listing projection is applied: last, after the rooms metadata it reads. */
export const LISTING_PROJECTION_ORDER = 30;

/**
 * The `/rooms` read model, registered with the projections layer. It reads the rooms read model while
 * applying (the metadata the same event has just produced), so it declares `after: ['rooms']` and the
 * registry refuses to start if rooms is not applied before it. Nothing of it is checkpointed.
 */
export const ListingReadModelModule = ProjectionsModule.forFeature({
  imports: [RoomsReadModelModule],
  providers: [WindowLoader],
  projections: [{ use: ListingProjection, order: LISTING_PROJECTION_ORDER, after: ['rooms'] }],
});

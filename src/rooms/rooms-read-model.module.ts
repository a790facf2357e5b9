import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { ProjectionsModule } from '../projections/projections.module';
import { RingFileStore } from './ring/ring-file-store';
import { TailCache } from './ring/tail-cache';
import { MessageKeysProjection } from './idempotency/message-keys.projection';
import { RoomsProjection } from './rooms.projection';

/** Where the rooms projection is applied: first, since the listing reads what each event produced. */
export const ROOMS_PROJECTION_ORDER = 10;
/** The message idempotency keys: independent of the others (they read only the event). */
export const MESSAGE_KEYS_PROJECTION_ORDER = 15;

/**
 * The rooms read model, registered with the projections layer: RoomsProjection (metadata, nonce
 * indexes), MessageKeysProjection (idempotency keys of messages), the ring files it writes (the files every checkpoint covers, so RingFileStore is also the
 * checkpoint-files port) and the hot-tail cache. Imported by RoomsModule and by what reads rooms
 * without the HTTP feature (listing, stats, the replay tool); Nest builds it once.
 */
export const RoomsReadModelModule = ProjectionsModule.forFeature({
  providers: [
    { provide: RingFileStore, inject: [APP_CONFIG], useFactory: (c: AppConfig) => new RingFileStore(c.root) },
    {
      provide: TailCache,
      inject: [APP_CONFIG],
      useFactory: (c: AppConfig) => new TailCache(c.hotTailMb * 1024 * 1024),
    },
  ],
  projections: [
    { use: RoomsProjection, order: ROOMS_PROJECTION_ORDER },
    { use: MessageKeysProjection, order: MESSAGE_KEYS_PROJECTION_ORDER },
  ],
  checkpointFiles: RingFileStore,
});

import { DynamicModule, Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { Clock, SystemClock } from '../common/clock';
import { ServiceKey } from '../identity/service-key';
import { EventLog } from '../log/event-log';
import { LogModule } from '../log/log.module';
import { ListingReadModelModule } from '../listing/listing-read-model.module';
import { NotesReadModelModule } from '../notes/notes-read-model.module';
import { CHECKPOINT_SIGNER } from '../projections/checkpoint-signer';
import { ProjectionsModule } from '../projections/projections.module';
import { RoomsReadModelModule } from '../rooms/rooms-read-model.module';

/**
 * The read models without HTTP: the same ProjectionsModule the service runs (runner, checkpoints)
 * and every feature's read model, registered as in the service, over a log the caller opened (the
 * log module closes it at shutdown, after the final checkpoint). The replay tool drives it. Its
 * checkpoints sign their log chain value with the target's service key, as the service's do (issue 29).
 */
@Module({})
export class ReplayModule {
  static forLog(config: Readonly<AppConfig>, log: EventLog): DynamicModule {
    return {
      module: ReplayModule,
      global: true,
      imports: [
        ScheduleModule.forRoot(),
        LogModule.forLog(log),
        ProjectionsModule,
        RoomsReadModelModule,
        NotesReadModelModule,
        ListingReadModelModule,
      ],
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: Clock, useValue: new SystemClock() },
        ServiceKey,
        { provide: CHECKPOINT_SIGNER, useExisting: ServiceKey },
      ],
      exports: [APP_CONFIG, Clock, CHECKPOINT_SIGNER],
    };
  }
}

import { DynamicModule, Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { Clock, SystemClock } from '../common/clock';
import { EventLog } from '../log/event-log';
import { EVENT_LOG } from '../log/log.tokens';
import { ListingReadModelModule } from '../listing/listing-read-model.module';
import { NotesReadModelModule } from '../notes/notes-read-model.module';
import { ProjectionsModule } from '../projections/projections.module';
import { RoomsReadModelModule } from '../rooms/rooms-read-model.module';

/**
 * The read models without HTTP: the same ProjectionsModule the service runs (runner, checkpoints)
 * and every feature's read model, registered as in the service, over a log the caller opened. The
 * replay tool drives it.
 */
@Module({})
export class ReplayModule {
  static forLog(config: Readonly<AppConfig>, log: EventLog): DynamicModule {
    return {
      module: ReplayModule,
      global: true,
      imports: [
        ScheduleModule.forRoot(),
        ProjectionsModule,
        RoomsReadModelModule,
        NotesReadModelModule,
        ListingReadModelModule,
      ],
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: Clock, useValue: new SystemClock() },
        { provide: EVENT_LOG, useValue: log },
      ],
      exports: [APP_CONFIG, Clock, EVENT_LOG],
    };
  }
}

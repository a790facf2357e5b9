import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { ScheduleModule } from '@nestjs/schedule';
import { AccessModule } from './access/access.module';
import { globalGuardProviders } from './access/global-guards';
import { AppConfig } from './config/app-config';
import { APP_CONFIG } from './config/config.tokens';
import { DocsModule } from './docs/docs.module';
import { Clock, SystemClock } from './common/clock';
import { HealthController } from './health.controller';
import { IdentityModule } from './identity/identity.module';
import { HttpErrorFilter } from './http/http-error.filter';
import { ListingModule } from './listing/listing.module';
import { LogModule } from './log/log.module';
import { McpModule } from './mcp/mcp.module';
import { NotesModule } from './notes/notes.module';
import { NoteWriteModel } from './notes/note-write.model';
import { OwnerNotes } from './ownership/owner-notes.port';
import { RoomHeads } from './ownership/room-heads.port';
import { ProjectionsModule } from './projections/projections.module';
import { WriteModule } from './write/write.module';
import { RoomsModule } from './rooms/rooms.module';
import { RoomWriteModel } from './rooms/room-write.model';
import { MetricsModule } from './metrics/metrics.module';
import { TracingModule } from './tracing/tracing.module';
import { HumansModule } from './humans/humans.module';
import { StatsModule } from './stats/stats.module';
import { RuntimeModule } from './runtime/runtime.module';
import { StreamsModule } from './streams/streams.module';

export interface AppModuleOptions {
  readonly config: Readonly<AppConfig>;
  /** Tests pass a ManualClock; production uses the system clock. */
  readonly clock?: Clock;
}

/**
 * Composition root: configuration, clock, the log, read models, features, the ownership ports bound
 * to the features' write models (so rooms and notes never import each other), the one error filter,
 * and the global guards in their pinned order (src/access/global-guards.ts).
 */
@Module({})
export class AppModule {
  static forRoot(options: AppModuleOptions): DynamicModule {
    return {
      module: AppModule,
      global: true,
      imports: [
        ScheduleModule.forRoot(),
        AccessModule,
        IdentityModule,
        RuntimeModule,
        MetricsModule,
        TracingModule,
        LogModule.forRoot(),
        ProjectionsModule,
        WriteModule,
        RoomsModule,
        StreamsModule,
        NotesModule,
        ListingModule,
        DocsModule,
        McpModule,
        HumansModule,
        StatsModule,
      ],
      controllers: [HealthController],
      providers: [
        { provide: APP_CONFIG, useValue: options.config },
        { provide: Clock, useValue: options.clock ?? new SystemClock() },
        { provide: APP_FILTER, useClass: HttpErrorFilter },
        // Ownership's ports (src/ownership): it reads the write state of rooms and notes, and imports neither.
        { provide: OwnerNotes, useExisting: NoteWriteModel },
        { provide: RoomHeads, useExisting: RoomWriteModel },
        ...globalGuardProviders(),
      ],
      exports: [APP_CONFIG, Clock, OwnerNotes, RoomHeads],
    };
  }
}

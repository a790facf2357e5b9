import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { ScheduleModule } from '@nestjs/schedule';
import { AppConfig } from './config/app-config';
import { APP_CONFIG } from './config/config.tokens';
import { Clock, SystemClock } from './common/clock';
import { HealthController } from './health.controller';
import { HttpErrorFilter } from './http/http-error.filter';
import { LogModule } from './log/log.module';
import { ProjectionsModule } from './projections/projections.module';
import { RoomsModule } from './rooms/rooms.module';

export interface AppModuleOptions {
  readonly config: Readonly<AppConfig>;
  /** Tests pass a ManualClock; production uses the system clock. */
  readonly clock?: Clock;
}

/** Composition root: configuration, clock, the log, read models, features, and the one error filter. */
@Module({})
export class AppModule {
  static forRoot(options: AppModuleOptions): DynamicModule {
    return {
      module: AppModule,
      global: true,
      imports: [ScheduleModule.forRoot(), LogModule, ProjectionsModule, RoomsModule],
      controllers: [HealthController],
      providers: [
        { provide: APP_CONFIG, useValue: options.config },
        { provide: Clock, useValue: options.clock ?? new SystemClock() },
        { provide: APP_FILTER, useClass: HttpErrorFilter },
      ],
      exports: [APP_CONFIG, Clock],
    };
  }
}

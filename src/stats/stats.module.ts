import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module';
import { ProjectionsModule } from '../projections/projections.module';
import { StatsController } from './http/stats.controller';

/** GET /stats, token-gated operator aggregates (contract §15.6). */
@Module({ imports: [AccessModule, ProjectionsModule], controllers: [StatsController] })
export class StatsModule {}

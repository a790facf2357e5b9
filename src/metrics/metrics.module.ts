import { Global, Module } from '@nestjs/common';
import { COMMIT_OBSERVER } from '../log/file/commit-observer';
import { CHECKPOINT_OBSERVER } from '../projections/checkpoint-observer';
import { MetricsListener } from './metrics-listener';
import { ServiceMetrics } from './service-metrics';
import { checkpointTimings, commitTimings } from './storage-timings';

/**
 * The process's metrics registry, for every module that counts something, and its listener. It fills
 * the storage layers' observer ports (group-commit and checkpoint timings), so the log and the
 * projections never import it.
 */
@Global()
@Module({
  providers: [
    { provide: ServiceMetrics, useFactory: () => new ServiceMetrics() },
    { provide: COMMIT_OBSERVER, inject: [ServiceMetrics], useFactory: commitTimings },
    { provide: CHECKPOINT_OBSERVER, inject: [ServiceMetrics], useFactory: checkpointTimings },
    MetricsListener,
  ],
  exports: [ServiceMetrics, COMMIT_OBSERVER, CHECKPOINT_OBSERVER],
})
export class MetricsModule {}

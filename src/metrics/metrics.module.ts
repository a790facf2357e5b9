import { Global, Module } from '@nestjs/common';
import { COMMIT_OBSERVER } from '../log/file/commit-observer';
import { CHECKPOINT_OBSERVER } from '../projections/checkpoint-observer';
import { MetricsListener } from './metrics-listener';
import { ServiceMetrics } from './service-metrics';
import { checkpointTimings, commitTimings, writeCounts } from './storage-timings';
import { WRITE_OBSERVER } from '../write/write-observer';

/**
 * The process's metrics registry, for every module that counts something, and its listener. It fills
 * the storage layers' observer ports (group-commit and checkpoint timings, conflict retries), so the
 * log, the projections and the write coordinators never import it.
 */
@Global()
@Module({
  providers: [
    { provide: ServiceMetrics, useFactory: () => new ServiceMetrics() },
    { provide: COMMIT_OBSERVER, inject: [ServiceMetrics], useFactory: commitTimings },
    { provide: CHECKPOINT_OBSERVER, inject: [ServiceMetrics], useFactory: checkpointTimings },
    { provide: WRITE_OBSERVER, inject: [ServiceMetrics], useFactory: writeCounts },
    MetricsListener,
  ],
  exports: [ServiceMetrics, COMMIT_OBSERVER, CHECKPOINT_OBSERVER, WRITE_OBSERVER],
})
export class MetricsModule {}

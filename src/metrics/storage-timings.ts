import { CommitObserver } from '../log/file/commit-observer';
import { CheckpointObserver } from '../projections/checkpoint-observer';
import { ServiceMetrics } from './service-metrics';

/** The log's group-commit timings, observed into the registry. */
export function commitTimings(metrics: ServiceMetrics): CommitObserver {
  return {
    batchWritten: (records, seconds) => {
      metrics.batchRecords.observe(records);
      metrics.logWriteSeconds.observe(seconds);
    },
    synced: (seconds) => metrics.logSyncSeconds.observe(seconds),
  };
}

/** Checkpoint durations, observed into the registry. */
export function checkpointTimings(metrics: ServiceMetrics): CheckpointObserver {
  return { written: (seconds) => metrics.checkpointSeconds.observe(seconds) };
}

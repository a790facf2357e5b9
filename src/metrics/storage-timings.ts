import { CommitObserver } from '../log/file/commit-observer';
import { CheckpointObserver } from '../projections/checkpoint-observer';
import { WriteObserver } from '../write/write-observer';
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

/** Writes decided again after another node's write (chat_write_conflict_retries_total). */
export function writeCounts(metrics: ServiceMetrics): WriteObserver {
  return { conflictRetried: () => metrics.conflictRetries.inc() };
}

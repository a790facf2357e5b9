import { EventLog } from './event-log';
import { CommitObserver } from './file/commit-observer';

/**
 * Wraps the log the module opens (tracing: src/tracing): a port of the log, filled by whoever
 * instruments it, under LOG_INSTRUMENTATION. When nothing fills it (tracing off, the default) the
 * log is used as opened: no wrapper on the write path at all.
 */
export interface LogInstrumentation {
  /** The file log's commit observer, extended (the group commit's write and fsync timings). */
  commits(observer: CommitObserver): CommitObserver;
  /** The opened log, wrapped. */
  wrap(log: EventLog, backend: 'file' | 'nats'): EventLog;
}

export const LOG_INSTRUMENTATION = Symbol('LOG_INSTRUMENTATION');

import { FSYNC_POLICIES, FsyncPolicy } from './group-commit';
import { CommitObserver, IGNORE_COMMITS } from './commit-observer';
import { consoleLogSink, LogSink } from './log-sink';
import { OpenSegmentFile, openSegmentFile } from './segment-file';

export interface SegmentedEventLogOptions {
  /** Directory holding the segment files; created (with its parents) if missing. */
  readonly dir: string;
  /** A segment is sealed and a new one started before a write would take it past this size. 64 MiB. */
  readonly segmentBytes?: number;
  /** When appends are acknowledged relative to fdatasync (see FsyncPolicy). `always`. */
  readonly fsync?: FsyncPolicy;
  /** Period of the background fdatasync under the `interval` policy. 50 ms. */
  readonly fsyncIntervalMs?: number;
  /** Receives recovery, roll, retention and failure messages. The console. */
  readonly logger?: LogSink;
  /** Open an existing log for reading only: no recovery cut, no writes (tools reading a live log). */
  readonly readOnly?: boolean;
  /** Base offset of the first segment when the directory holds none (a log continuing a snapshot). */
  readonly initialOffset?: number;
  /** Timing of batch writes and fsyncs (metrics). None by default. */
  readonly observer?: CommitObserver;
  /** Test seam only: opens segment files (tests wrap real handles to inject I/O errors). */
  readonly openFile?: OpenSegmentFile;
}

export type ResolvedLogOptions = Required<SegmentedEventLogOptions>;

export const DEFAULT_SEGMENT_BYTES = 64 * 1024 * 1024;
export const DEFAULT_FSYNC_INTERVAL_MS = 50;

/** Fills defaults and rejects values the log cannot work with (a programming error, thrown at once). */
export function resolveLogOptions(options: SegmentedEventLogOptions): ResolvedLogOptions {
  const resolved: ResolvedLogOptions = {
    dir: options.dir,
    segmentBytes: options.segmentBytes ?? DEFAULT_SEGMENT_BYTES,
    fsync: options.fsync ?? 'always',
    fsyncIntervalMs: options.fsyncIntervalMs ?? DEFAULT_FSYNC_INTERVAL_MS,
    logger: options.logger ?? consoleLogSink,
    openFile: options.openFile ?? openSegmentFile,
    readOnly: options.readOnly ?? false,
    initialOffset: options.initialOffset ?? 0,
    observer: options.observer ?? IGNORE_COMMITS,
  };
  if (!resolved.dir) throw new RangeError('event log: dir is required');
  if (!Number.isSafeInteger(resolved.segmentBytes) || resolved.segmentBytes < 1) {
    throw new RangeError(`event log: segmentBytes must be a positive integer, got ${resolved.segmentBytes}`);
  }
  if (!Number.isSafeInteger(resolved.initialOffset) || resolved.initialOffset < 0) {
    throw new RangeError(
      `event log: initialOffset must be a non-negative integer, got ${resolved.initialOffset}`,
    );
  }
  if (!FSYNC_POLICIES.includes(resolved.fsync)) {
    throw new RangeError(
      `event log: fsync must be one of ${FSYNC_POLICIES.join(', ')}, got ${resolved.fsync}`,
    );
  }
  if (!(resolved.fsyncIntervalMs > 0)) {
    throw new RangeError(`event log: fsyncIntervalMs must be positive, got ${resolved.fsyncIntervalMs}`);
  }
  return resolved;
}

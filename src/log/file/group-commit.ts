import { AppendResult } from '../event-log';
import { DomainError } from '../../common/domain-error';
import { StorageFullError, storageFullCause } from '../../storage/storage-full.error';
import { LogUnavailableError } from '../log.errors';
import { CommitObserver, IGNORE_COMMITS } from './commit-observer';

/**
 * When an append is acknowledged:
 * - `always`: after the fdatasync that covers it (nothing acknowledged is lost on power failure);
 * - `interval`: after the write; fdatasync runs every `fsyncIntervalMs` while there is unsynced data
 *   (a power failure loses at most about one interval of acknowledged appends);
 * - `none`: after the write; fdatasync only when a segment is sealed and on close.
 * A process crash (as opposed to a machine crash) loses nothing acknowledged under any policy: written
 * bytes are in the page cache.
 */
export type FsyncPolicy = 'always' | 'interval' | 'none';
export const FSYNC_POLICIES: readonly FsyncPolicy[] = ['always', 'interval', 'none'];

/** One `append` call waiting for its batch: frames already encoded, offsets already assigned. */
export interface QueuedAppend {
  readonly frames: readonly Buffer[];
  /** Total bytes of `frames`. */
  readonly bytes: number;
  readonly first: number;
  readonly next: number;
  readonly resolve: (result: AppendResult) => void;
  readonly reject: (error: Error) => void;
}

/** The storage side of a commit, implemented by the log. */
export interface CommitTarget {
  /** Writes the frames of a batch in order, in as few writes as possible (rolling segments if due). */
  write(batch: readonly QueuedAppend[]): Promise<void>;
  /** fdatasync of everything written so far. */
  sync(): Promise<void>;
  /** The batch is committed: publish it (head, subscribers), then resolve its appends. Must not throw. */
  committed(batch: readonly QueuedAppend[]): void;
  /** The I/O error that poisoned the log, reported once. */
  failed(error: Error): void;
}

/**
 * Group commit. At most one I/O step (a batch write, an fdatasync, a roll) is in flight at any time;
 * appends that arrive meanwhile wait in the queue and all go out in the next single write (and, under
 * `always`, a single fdatasync). With nothing in flight the first append starts a flush at once: the
 * flush begins on a microtask, not a timer, so appends issued in the same synchronous run share it.
 *
 * Any write or fdatasync error poisons the committer for good: the failing batch, everything queued
 * and every later append reject with LogUnavailableError. Retrying is unsafe: after a failed fsync
 * Linux may have dropped the dirty pages and cleared the error, so a second fsync can "succeed" over
 * data that never reached the disk. Only a restart, which re-reads the file, knows what is there.
 */
export class GroupCommitter {
  private queue: QueuedAppend[] = [];
  private running = false;
  private unsynced = false;
  private syncDue = false;
  private failure: Error | undefined;
  private idle: Array<() => void> = [];
  private readonly timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly policy: FsyncPolicy,
    private readonly target: CommitTarget,
    fsyncIntervalMs: number,
    private readonly observer: CommitObserver = IGNORE_COMMITS,
  ) {
    if (policy === 'interval') {
      this.timer = setInterval(() => this.requestSync(), fsyncIntervalMs);
      this.timer.unref();
    }
  }

  /** The error that poisoned the log, if any. */
  get poison(): Error | undefined {
    return this.failure;
  }

  enqueue(entry: QueuedAppend): void {
    if (this.failure) {
      entry.reject(poisoned(this.failure));
      return;
    }
    this.queue.push(entry);
    this.start();
  }

  /** Resolves once every append enqueued so far is committed or rejected. */
  drain(): Promise<void> {
    if (!this.running) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  /** Resolves once everything committed so far is fdatasync'ed, whatever the policy. */
  async syncNow(): Promise<void> {
    await this.drain();
    if (this.failure) throw poisoned(this.failure);
    if (!this.unsynced) return;
    this.syncDue = true;
    this.start();
    await this.drain();
    if (this.failure) throw poisoned(this.failure);
  }

  /** Stops the interval timer. Call after `drain`, before closing files. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  private requestSync(): void {
    if (!this.unsynced || this.failure) return;
    this.syncDue = true;
    this.start();
  }

  private start(): void {
    if (this.running) return;
    this.running = true;
    queueMicrotask(() => void this.run());
  }

  private async run(): Promise<void> {
    while (!this.failure && (this.queue.length > 0 || this.syncDue)) {
      if (this.syncDue) {
        this.syncDue = false;
        this.unsynced = false;
        if (!(await this.attempt(() => this.timedSync(), []))) break;
      }
      if (this.queue.length === 0) continue;
      const batch = this.queue;
      this.queue = [];
      if (!(await this.attempt(() => this.flush(batch), batch))) break;
      this.target.committed(batch);
    }
    this.running = false;
    for (const resolve of this.idle.splice(0)) resolve();
  }

  private async flush(batch: readonly QueuedAppend[]): Promise<void> {
    const started = process.hrtime.bigint();
    await this.target.write(batch);
    let records = 0;
    for (const entry of batch) records += entry.frames.length;
    this.observer.batchWritten(records, seconds(started));
    if (this.policy === 'always') await this.timedSync();
    else this.unsynced = true;
  }

  private async timedSync(): Promise<void> {
    const started = process.hrtime.bigint();
    await this.target.sync();
    this.observer.synced(seconds(started));
  }

  /** Runs one I/O step; on failure poisons the committer and rejects `batch` and the queue. */
  private async attempt(step: () => Promise<void>, batch: readonly QueuedAppend[]): Promise<boolean> {
    try {
      await step();
      return true;
    } catch (error) {
      const cause = error instanceof Error ? error : new Error(String(error));
      this.failure = cause;
      this.stop();
      this.target.failed(cause);
      const rejected = [...batch, ...this.queue.splice(0)];
      for (const entry of rejected) entry.reject(poisoned(cause));
      return false;
    }
  }
}

/** The error every append gets once the log is poisoned: 507 when the disk is full or read-only. */
export function poisoned(cause: Error): DomainError {
  const full = storageFullCause(cause);
  if (full !== null) return new StorageFullError(full);
  return new LogUnavailableError(
    `poisoned: an earlier write or fsync failed (${cause.message}); restart to recover`,
  );
}

function seconds(since: bigint): number {
  return Number(process.hrtime.bigint() - since) / 1e9;
}

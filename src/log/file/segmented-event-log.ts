import { resolve } from 'node:path';
import { AppendOptions, AppendResult, CommitListener, EventLog, LogRecord, ReadOptions } from '../event-log';
import { LogUnavailableError } from '../log.errors';
import { encodeFrame, framePayload } from './frame';
import { CommitTarget, GroupCommitter, poisoned, QueuedAppend } from './group-commit';
import { SegmentChain } from './segment-chain';
import { readSegments } from './segment-reader';
import {
  ResolvedLogOptions,
  resolveLogOptions,
  SegmentedEventLogOptions,
} from './segmented-event-log.options';

/** Counters since open, for tests and benchmarks. */
export interface LogStats {
  /** `append` calls committed. */
  readonly appends: number;
  /** Records committed. */
  readonly records: number;
  /** Write calls issued (one per batch, one more for each roll inside a batch). */
  readonly batches: number;
  /** fdatasync calls on segments: commits, rolls, interval ticks, close (not recovery's cut). */
  readonly fsyncs: number;
  /** Frame bytes written (headers included). */
  readonly bytes: number;
  /** Segment files currently retained. */
  readonly segments: number;
}

/** The live parts of an open log. */
interface OpenState {
  readonly chain: SegmentChain;
  readonly committer: GroupCommitter;
}

/**
 * The embedded event log: a directory of segment files (format in src/log/file/FORMAT.md), the
 * default backend.
 *
 * Ownership: while open, this instance owns the directory (two processes must never open the same
 * directory; nothing here locks it) and, through its SegmentChain, the one writable descriptor.
 *
 * Offsets are assigned when `append` is called; a GroupCommitter batches writes and fdatasyncs (see
 * FsyncPolicy). Records become visible to `read` and to subscribers only once committed, in offset
 * order; subscribers run synchronously right after each commit, before the covered appends resolve.
 *
 * Crash behaviour: on open a torn tail of the newest segment is cut back to its last valid frame, so a
 * torn write disappears and offsets continue right after the surviving prefix; damage with valid
 * frames after it refuses the open and changes nothing (segment-recovery.ts). Under `always` every acknowledged
 * record survives a machine crash; a record whose append was never acknowledged may or may not.
 */
export class SegmentedEventLog implements EventLog {
  private readonly options: ResolvedLogOptions;
  private readonly dir: string;
  private state: OpenState | undefined;
  private opening: Promise<void> | undefined;
  private closing: Promise<void> | undefined;
  private nextOffset = 0;
  private committedNext = 0;
  private appends = 0;
  private records = 0;
  private readonly listeners = new Set<CommitListener>();

  constructor(options: SegmentedEventLogOptions) {
    this.options = resolveLogOptions(options);
    this.dir = resolve(this.options.dir);
  }

  open(): Promise<void> {
    if (this.opening || this.closing) {
      return Promise.reject(new Error('SegmentedEventLog.open() may be called only once, before close()'));
    }
    this.opening = this.recover();
    return this.opening;
  }

  committedHead(): number {
    return this.committedNext;
  }

  firstOffset(): number {
    return this.state?.chain.firstOffset ?? 0;
  }

  /**
   * Only this process writes the directory, so every decision is made against everything before it:
   * record keys and `readThrough` need no check here. `onFailed` runs synchronously with every refusal.
   */
  append(payloads: readonly Buffer[], options: AppendOptions = {}): Promise<AppendResult> {
    const refused = this.refusal();
    if (refused) return failed(refused, options);
    let frames: Buffer[];
    try {
      // Copies (the caller may reuse its buffers at once), every frame but the last marked as continued:
      // the append is one batch, and recovery and replay cut only between batches.
      frames = payloads.map((payload, i) => encodeFrame(payload, i < payloads.length - 1));
    } catch (error) {
      return failed(error as Error, options); // a payload over the frame limit: a bug upstream
    }
    const first = this.nextOffset;
    const next = first + frames.length;
    this.nextOffset = next;
    const bytes = frames.reduce((sum, frame) => sum + frame.length, 0);
    const { onFailed } = options;
    return new Promise((resolve, reject) =>
      this.state!.committer.enqueue({
        frames,
        bytes,
        first,
        next,
        resolve,
        // The committer rejects a failed batch synchronously: the caller forgets its pending state
        // in that same step.
        reject: onFailed === undefined ? reject : (error) => (onFailed(), reject(error)),
      }),
    );
  }

  /** The offset the next append receives (appends not yet committed included). */
  head(): number {
    return this.nextOffset;
  }

  /** Why an append made now is refused before it is queued, if it is. */
  private refusal(): Error | undefined {
    if (!this.state || this.closing) return new LogUnavailableError(this.closing ? 'closed' : 'not open');
    if (this.options.readOnly) return new LogUnavailableError('opened read-only');
    return this.writeFault();
  }

  /** The error every append gets now that an I/O failure poisoned the log (507 for a full disk). */
  writeFault(): Error | undefined {
    const poison = this.state?.committer.poison;
    return poison ? poisoned(poison) : undefined;
  }

  /** Snapshot at call time: the segment list and the committed head (the default and cap of `until`). */
  read(from: number, options: ReadOptions = {}): AsyncIterable<LogRecord> {
    const until = Math.min(options.until ?? this.committedNext, this.committedNext);
    const segments = this.state?.chain.snapshot() ?? [];
    const start = Math.max(from, this.firstOffset());
    return readSegments({ segments, from: start, until, openFile: this.options.openFile });
  }

  subscribe(listener: CommitListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  sync(): Promise<void> {
    if (!this.state || this.closing)
      return Promise.reject(new LogUnavailableError('sync on a log that is not open'));
    return this.options.readOnly ? Promise.resolve() : this.state.committer.syncNow();
  }

  /** Deletes sealed segments whose records all lie before `offset`, capped at the committed head. */
  async truncateBefore(offset: number): Promise<void> {
    if (!this.state || this.closing) throw new LogUnavailableError('retention on a log that is not open');
    if (this.options.readOnly) throw new LogUnavailableError('opened read-only');
    const removed = await this.state.chain.removeBefore(Math.min(offset, this.committedNext));
    if (removed > 0) {
      this.options.logger.log(`retention removed ${removed} segment(s); first offset ${this.firstOffset()}`);
    }
  }

  /** Waits for queued appends, fdatasyncs (whatever the policy) and closes the descriptor. Idempotent. */
  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  stats(): LogStats {
    const io = this.state?.chain.counters ?? { batches: 0, fsyncs: 0, bytes: 0 };
    const segments = this.state?.chain.segmentCount ?? 0;
    return { appends: this.appends, records: this.records, ...io, segments };
  }

  private async recover(): Promise<void> {
    const { segmentBytes, openFile, logger, fsync, fsyncIntervalMs, readOnly, initialOffset } = this.options;
    const chain = await SegmentChain.open(this.dir, {
      segmentBytes,
      openFile,
      logger,
      readOnly,
      initialOffset,
    });
    this.nextOffset = this.committedNext = chain.next;
    const committer = new GroupCommitter(
      fsync,
      this.commitTarget(chain),
      fsyncIntervalMs,
      this.options.observer,
    );
    this.state = { chain, committer };
    logger.log(
      `opened ${this.dir}: ${chain.segmentCount} segment(s), offsets ${chain.firstOffset}..${chain.next}`,
    );
  }

  private async shutdown(): Promise<void> {
    await this.opening?.catch(() => undefined);
    if (!this.state) return;
    const { chain, committer } = this.state;
    await committer.drain();
    committer.stop();
    try {
      if (!committer.poison && !this.options.readOnly) await chain.sync();
    } catch (error) {
      this.options.logger.warn(`final fsync failed: ${(error as Error).message}`);
      throw new LogUnavailableError(`final fsync on close failed: ${(error as Error).message}`);
    } finally {
      await chain.close();
    }
  }

  private commitTarget(chain: SegmentChain): CommitTarget {
    return {
      write: (batch) => chain.write(batch),
      sync: () => chain.sync(),
      committed: (batch) => this.publish(batch),
      failed: (error) =>
        this.options.logger.warn(`event log poisoned, appends refused until restart: ${error.message}`),
    };
  }

  /** Publishes a committed batch: head first, then subscribers in offset order, then the appenders. */
  private publish(batch: readonly QueuedAppend[]): void {
    const records: LogRecord[] = [];
    for (const entry of batch) {
      entry.frames.forEach((frame, i) =>
        records.push({ offset: entry.first + i, payload: framePayload(frame) }),
      );
    }
    this.committedNext = batch[batch.length - 1].next;
    this.appends += batch.length;
    this.records += records.length;
    if (records.length > 0) {
      for (const listener of [...this.listeners]) {
        try {
          listener(records);
        } catch (error) {
          // A subscriber's bug must not undo a commit that is already durable.
          this.options.logger.warn(`commit listener threw: ${(error as Error).message}`);
        }
      }
    }
    for (const entry of batch) entry.resolve({ first: entry.first, next: entry.next });
  }
}

/** A refused append: the caller's `onFailed` first, in the same step, then the rejected promise. */
function failed(error: Error, options: AppendOptions): Promise<never> {
  options.onFailed?.();
  return Promise.reject(error);
}

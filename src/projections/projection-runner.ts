import { Inject, Injectable, Logger } from '@nestjs/common';
import { ChatEvent } from '../events/chat-event';
import { decodeEvent } from '../events/event-codec';
import { EventLog, LogRecord } from '../log/event-log';
import { EVENT_LOG } from '../log/log.tokens';
import { ChangeNotifier } from './change-notifier';
import { CheckpointRecovery } from './checkpoint-recovery';
import { Projection, PROJECTIONS } from './projection';
import { DomainError } from '../common/domain-error';
import { StorageFullError, storageFullCause } from '../storage/storage-full.error';
import { ProjectionFailedError } from './projection-failed.error';
import { LogChain } from './log-chain';
import { ScopeHeadsFold } from './scope-heads-fold';

interface AppliedWaiter {
  readonly offset: number;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

/**
 * Applies log records to every projection in offset order: first a replay from the newest checkpoint
 * at start-up, then each committed batch as the log reports it. Writers await `whenApplied` so their
 * reply reads the model that includes their own write; long-polls are woken after the batch is applied.
 *
 * A record that fails to apply stops the runner for good (issue 11): the projections may hold half of
 * it, so nothing after it can be applied or checkpointed. The failure is logged once with its offset
 * and event type, every waiting writer is rejected with it, and `assertAccepting` refuses later writes
 * before they reach the log (503, or 507 when the cause is a full or read-only disk).
 */
@Injectable()
export class ProjectionRunner {
  private readonly logger = new Logger('ProjectionRunner');
  private next = 0;
  private waiters: AppliedWaiter[] = [];
  private unsubscribe: (() => void) | null = null;
  private applied = 0;
  private readonly batchListeners: Array<() => void> = [];
  private failed: DomainError | null = null;
  private failedAt = '';
  private replay: { readonly fromOffset: number; readonly replayed: number } | null = null;
  /** The whole log's hash chain (issue 29), folded here: only the runner sees each record's stored bytes. */
  readonly logChain = new LogChain();
  /** Every scope's last applied record, folded here for the same reason; a shared log checks against it. */
  readonly scopeHeads = new ScopeHeadsFold();

  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(PROJECTIONS) private readonly projections: Projection[],
    private readonly notifier: ChangeNotifier,
    private readonly recovery: CheckpointRecovery,
  ) {
    log.useAppliedScopeHeads?.(this.scopeHeads);
  }

  /** Restores the newest checkpoint, replays the log after it, then follows new commits. */
  async start(): Promise<{ fromOffset: number; replayed: number }> {
    const fromOffset = await this.recovery.restore([...this.projections, this.logChain, this.scopeHeads]);
    this.next = fromOffset;
    if (this.logChain.snapshot().offset !== fromOffset) await this.rebuildLogChain(fromOffset);
    if (this.scopeHeads.next !== fromOffset) this.startScopeHeadsAt(fromOffset);
    let replayed = 0;
    // Subscribed before replaying, ignored until caught up: with a shared log (the nats backend)
    // other nodes commit while this one replays, and those records must not fall between the two.
    let live = false;
    this.unsubscribe = this.log.subscribe((records) => {
      if (live) this.applyBatch(records);
    });
    while (this.next < this.log.committedHead()) {
      const before = this.next;
      for await (const record of this.log.read(this.next)) {
        if (record.offset < this.next) continue;
        this.applyRecord(record);
        if (this.failed) throw new Error(`start-up replay stopped: ${this.failedAt}`);
        replayed++;
      }
      if (this.next === before) throw new Error(`start-up replay stalled at offset ${before}`);
    }
    live = true; // same turn as the check above: every later batch starts at or after this.next
    this.logger.log(
      `projections ready at offset ${this.next} (checkpoint ${fromOffset}, ${replayed} replayed)`,
    );
    this.replay = { fromOffset, replayed };
    return this.replay;
  }

  /**
   * The checkpoint predates log chains (it restored none): recomputed from L0 when the log still
   * holds every record before `fromOffset`, read once at this start; otherwise (compacted) started at
   * a stand-in anchor that proves nothing about the records before it (docs/operations.md).
   */
  private async rebuildLogChain(fromOffset: number): Promise<void> {
    if (this.log.firstOffset() !== 0) return this.logChain.startAt(fromOffset);
    // Such a checkpoint has no scope heads either: this one read rebuilds them too.
    const heads = this.scopeHeads.next !== fromOffset;
    if (heads) this.scopeHeads.startAt(0);
    for await (const record of this.log.read(0)) {
      if (record.offset >= fromOffset) break;
      this.logChain.fold(record.offset, record.payload);
      if (heads) this.scopeHeads.fold(record);
    }
    if (this.logChain.snapshot().offset !== fromOffset) this.logChain.startAt(fromOffset);
  }

  /**
   * The checkpoint predates scope heads (and its log chain needed no rebuild): replay starts knowing
   * none, so a shared log cannot check the first record of each scope after `fromOffset` (docs/scaling.md).
   * The next checkpoint carries the heads of every scope written since.
   */
  private startScopeHeadsAt(fromOffset: number): void {
    this.scopeHeads.startAt(fromOffset);
    if (this.log.useAppliedScopeHeads === undefined) return; // a log that checks no preconditions
    this.logger.warn(
      `checkpoint at offset ${fromOffset} carries no scope heads (written by an earlier version): ` +
        "each scope's first record after it is applied unchecked; the next checkpoint carries them",
    );
  }

  /** What the start-up replay did (the start-up log line reports it); null before start. */
  get startReplay(): { readonly fromOffset: number; readonly replayed: number } | null {
    return this.replay;
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  /** The next log offset to be applied (everything below it is in the read models). */
  get nextOffset(): number {
    return this.next;
  }

  /** Events applied since the process started (checkpoint cadence reads it). */
  get appliedCount(): number {
    return this.applied;
  }

  /** Resolves once the record at `offset` has been applied to every projection; rejects if applying failed. */
  whenApplied(offset: number): Promise<void> {
    if (this.isApplied(offset)) return Promise.resolve();
    if (this.failed) return Promise.reject(this.failed);
    return new Promise((resolve, reject) => this.waiters.push({ offset, resolve, reject }));
  }

  /** Whether the record at `offset` is in every read model already (writers then skip awaiting it). */
  isApplied(offset: number): boolean {
    return offset < this.next;
  }

  /** Why the runner stopped applying the log, or null while it is healthy. */
  get failure(): DomainError | null {
    return this.failed;
  }

  /** The failure in one line (`projection failed at offset N (type): reason`), '' while healthy. */
  get failureSummary(): string {
    return this.failedAt;
  }

  /** Writers call this before appending: once applying failed, a write could never be acknowledged. */
  assertAccepting(): void {
    if (this.failed) throw this.failed;
  }

  /** Called after every applied batch (the checkpoint cadence listens here). */
  onBatchApplied(listener: () => void): void {
    this.batchListeners.push(listener);
  }

  private applyBatch(records: readonly LogRecord[]): void {
    const touched = new Set<string>();
    for (const record of records) {
      if (this.failed) break;
      if (record.offset < this.next) continue; // already applied during replay
      const room = this.applyRecord(record);
      if (room !== null) touched.add(room);
    }
    for (const room of touched) this.notifier.notify(room);
    if (this.waiters.length > 0) this.releaseWaiters();
    if (this.failed) return; // no checkpoint may capture a half-applied record
    for (const listener of this.batchListeners) listener();
  }

  /** Applies one record; returns the room it touched (long-polls to wake), or null for note events. */
  private applyRecord(record: LogRecord): string | null {
    if (record.offset !== this.next) {
      throw new Error(`projection gap: expected offset ${this.next}, log delivered ${record.offset}`);
    }
    let type = 'undecodable';
    let event: ChatEvent;
    try {
      event = decodeEvent(record.payload);
      type = event.type;
      for (const projection of this.projections) projection.apply(event, record.offset);
    } catch (error) {
      this.fail(record.offset, type, error);
      return null;
    }
    this.logChain.fold(record.offset, record.payload);
    this.scopeHeads.fold(record);
    this.next = record.offset + 1;
    this.applied++;
    return 'room' in event ? event.room : null;
  }

  private fail(offset: number, type: string, error: unknown): void {
    const reason = error instanceof Error ? error.message : String(error);
    const storage = storageFullCause(error);
    this.failed = storage ? new StorageFullError(storage) : new ProjectionFailedError(offset, type, reason);
    this.failedAt = `projection failed at offset ${offset} (${type}): ${reason}`;
    this.logger.error(`${this.failedAt}; writes refused until restart`);
  }

  private releaseWaiters(): void {
    const pending: AppliedWaiter[] = [];
    for (const waiter of this.waiters) {
      if (waiter.offset < this.next) waiter.resolve();
      else if (this.failed) waiter.reject(this.failed);
      else pending.push(waiter);
    }
    this.waiters = pending;
  }
}

import { Inject, Injectable, Logger } from '@nestjs/common';
import { decodeEvent } from '../events/event-codec';
import { EventLog, LogRecord } from '../log/event-log';
import { EVENT_LOG } from '../log/log.tokens';
import { ChangeNotifier } from './change-notifier';
import { CheckpointRecovery } from './checkpoint-recovery';
import { Projection, PROJECTIONS } from './projection';

interface AppliedWaiter {
  readonly offset: number;
  readonly resolve: () => void;
}

/**
 * Applies log records to every projection in offset order: first a replay from the newest checkpoint
 * at start-up, then each committed batch as the log reports it. Writers await `whenApplied` so their
 * reply reads the model that includes their own write; long-polls are woken after the batch is applied.
 */
@Injectable()
export class ProjectionRunner {
  private readonly logger = new Logger('ProjectionRunner');
  private next = 0;
  private waiters: AppliedWaiter[] = [];
  private unsubscribe: (() => void) | null = null;
  private applied = 0;
  private readonly batchListeners: Array<() => void> = [];

  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(PROJECTIONS) private readonly projections: Projection[],
    private readonly notifier: ChangeNotifier,
    private readonly recovery: CheckpointRecovery,
  ) {}

  /** Restores the newest checkpoint, replays the log after it, then follows new commits. */
  async start(): Promise<{ fromOffset: number; replayed: number }> {
    const fromOffset = await this.recovery.restore(this.projections);
    this.next = fromOffset;
    let replayed = 0;
    for await (const record of this.log.read(fromOffset)) {
      this.applyRecord(record);
      replayed++;
    }
    this.unsubscribe = this.log.subscribe((records) => this.applyBatch(records));
    this.logger.log(
      `projections ready at offset ${this.next} (checkpoint ${fromOffset}, ${replayed} replayed)`,
    );
    return { fromOffset, replayed };
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

  /** Resolves once the record at `offset` has been applied to every projection. */
  whenApplied(offset: number): Promise<void> {
    if (offset < this.next) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ offset, resolve }));
  }

  /** Called after every applied batch (the checkpoint cadence listens here). */
  onBatchApplied(listener: () => void): void {
    this.batchListeners.push(listener);
  }

  private applyBatch(records: readonly LogRecord[]): void {
    const touched = new Set<string>();
    for (const record of records) {
      if (record.offset < this.next) continue; // already applied during replay
      const room = this.applyRecord(record);
      if (room !== null) touched.add(room);
    }
    for (const room of touched) this.notifier.notify(room);
    if (this.waiters.length > 0) this.releaseWaiters();
    for (const listener of this.batchListeners) listener();
  }

  /** Applies one record; returns the room it touched (long-polls to wake), or null for note events. */
  private applyRecord(record: LogRecord): string | null {
    if (record.offset !== this.next) {
      throw new Error(`projection gap: expected offset ${this.next}, log delivered ${record.offset}`);
    }
    const event = decodeEvent(record.payload);
    for (const projection of this.projections) projection.apply(event, record.offset);
    this.next = record.offset + 1;
    this.applied++;
    return 'room' in event ? event.room : null;
  }

  private releaseWaiters(): void {
    const pending: AppliedWaiter[] = [];
    for (const waiter of this.waiters) {
      if (waiter.offset < this.next) waiter.resolve();
      else pending.push(waiter);
    }
    this.waiters = pending;
  }
}

import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { Clock } from '../common/clock';
import { formatTimestamp } from '../common/timestamp';
import { EventLog } from '../log/event-log';
import { EVENT_LOG } from '../log/log.tokens';
import { CHECKPOINT_OBSERVER, CheckpointObserver } from './checkpoint-observer';
import { CheckpointFiles } from './checkpoint-files';
import { CheckpointStore } from './checkpoint-store';
import { ProjectionRegistry } from './projection-registry';
import { Projection, PROJECTIONS } from './projection';
import { ProjectionRunner } from './projection-runner';
import { SnapshotPublisher } from './snapshot/snapshot-publisher';
import { CHECKPOINT_SIGNER, CheckpointSigner } from './checkpoint-signer';
import { logCheckpointPayload } from './log-chain';

/**
 * Takes checkpoints: captures every projection's state at one log offset, makes the log and the ring
 * files durable up to it, writes the checkpoint atomically, then garbage-collects what no kept
 * checkpoint needs (older checkpoints, ring files, and — with log retention `compact` — log segments
 * before the oldest kept checkpoint). Triggered on a timer, after `checkpointEvents` events, and at
 * shutdown. One checkpoint at a time; a request while one runs joins it.
 *
 * A scheduled checkpoint that fails (EMFILE, ENOSPC, a poisoned log) is logged in one line, kept for
 * /healthz, and retried after a backoff (1 s doubling up to the checkpoint interval): it must never
 * reject into the timer, where an unhandled rejection would kill the process (issue 18). Nothing is
 * lost by a missed checkpoint: the log still holds every record, replay just starts further back.
 * After a projection failed no checkpoint is taken: the read models may hold half of a record.
 */
@Injectable()
export class CheckpointService {
  private readonly logger = new Logger('CheckpointService');
  private inFlight: Promise<void> | null = null;
  private lastWrittenAt: number | null = null;
  private lastOffset = -1;
  private appliedAtLast = 0;
  private lastError: { readonly message: string; readonly since: number } | null = null;
  private retryMs = 0;
  private retryTimer: NodeJS.Timeout | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(PROJECTIONS) private readonly projections: Projection[],
    private readonly runner: ProjectionRunner,
    private readonly store: CheckpointStore,
    private readonly registry: ProjectionRegistry,
    private readonly clock: Clock,
    private readonly snapshots: SnapshotPublisher,
    // Absent in the replay tool, which builds the projections without the HTTP service.
    @Optional() @Inject(CHECKPOINT_OBSERVER) private readonly observer?: CheckpointObserver,
    @Optional() @Inject(CHECKPOINT_SIGNER) private readonly signer?: CheckpointSigner,
  ) {
    runner.onBatchApplied(() => {
      if (this.runner.appliedCount - this.appliedAtLast >= this.config.checkpointEvents) this.takeScheduled();
    });
  }

  /** The files checkpoints cover, as a feature registered them (rooms: the ring files). */
  private get files(): CheckpointFiles {
    return this.registry.checkpointFiles;
  }

  /** Offset of the newest checkpoint this process wrote (-1: none yet). */
  get lastCheckpointOffset(): number {
    return this.lastOffset;
  }

  /** The error of the last checkpoint attempt when it failed, for /healthz; null once one succeeds. */
  get failure(): string | null {
    return this.lastError === null
      ? null
      : `checkpoints failing since ${new Date(this.lastError.since).toISOString()}: ${this.lastError.message}`;
  }

  /** A timer- or cadence-triggered checkpoint: never rejects; a failure is logged and retried. */
  takeScheduled(): void {
    this.take().then(
      () => {
        this.lastError = null;
        this.retryMs = 0;
      },
      (error: unknown) => this.scheduleRetry(error),
    );
  }

  /** Cancels a pending retry (shutdown takes its own final checkpoint). */
  stopRetrying(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  /** Takes a checkpoint unless nothing was applied since the last one (or applying failed). */
  take(): Promise<void> {
    if (this.inFlight) return this.inFlight;
    if (this.runner.failure) return Promise.resolve();
    if (this.runner.nextOffset === this.lastOffset) return Promise.resolve();
    this.inFlight = this.write().finally(() => (this.inFlight = null));
    return this.inFlight;
  }

  /** Wall-clock time (ms since the epoch) of the newest checkpoint this process wrote, or null. */
  get lastCheckpointAt(): number | null {
    return this.lastWrittenAt;
  }

  private async write(): Promise<void> {
    const started = process.hrtime.bigint();
    const offset = this.runner.nextOffset;
    this.appliedAtLast = this.runner.appliedCount;
    const projections: Record<string, unknown> = {};
    const files: Record<string, number> = {};
    for (const projection of this.projections) {
      projections[projection.name] = projection.snapshot();
      for (const [file, length] of projection.referencedFiles?.() ?? []) files[file] = length;
    }
    projections[this.runner.logChain.name] = this.signedLogChain();
    // Exactly the heads of the records below `offset`: the runner folds them in the same synchronous
    // step as it applies each record and moves nextOffset, and this capture is synchronous with the
    // read models' above, so no record can be applied between `offset` and them (ScopeHeadsFold).
    projections[this.runner.scopeHeads.name] = this.runner.scopeHeads.snapshot();
    await this.log.sync(); // under interval/none the checkpoint must never be ahead of the durable log
    await this.files.syncDirty();
    const createdAt = formatTimestamp(this.clock.nowMicros());
    await this.store.write({ version: 2, offset, createdAt, projections, files });
    this.snapshots.checkpointWritten({ version: 2, offset, createdAt, files });
    this.lastOffset = offset;
    this.lastWrittenAt = Date.now();
    this.observer?.written(Number(process.hrtime.bigint() - started) / 1e9);
    await this.collectGarbage();
  }

  /** The log chain at the checkpoint's offset, signed: a verifier can tell a forged value (issue 29). */
  private signedLogChain(): object {
    const chain = this.runner.logChain.snapshot();
    if (this.signer === undefined) return chain; // the replay tool: it takes no checkpoints today
    const { did } = this.signer;
    return {
      ...chain,
      did,
      signature: this.signer.sign(logCheckpointPayload(chain.offset, chain.hash, did)),
    };
  }

  private scheduleRetry(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    this.lastError = { message, since: this.lastError?.since ?? Date.now() };
    this.retryMs = Math.min(Math.max(1000, this.retryMs * 2), this.config.checkpointSeconds * 1000);
    this.logger.warn(`checkpoint failed: ${message}; retrying in ${this.retryMs} ms`);
    if (this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.takeScheduled();
    }, this.retryMs);
    this.retryTimer.unref();
  }

  private async collectGarbage(): Promise<void> {
    // A snapshot being published reads its checkpoint's files: they stay until it ends.
    const pinned = this.snapshots.pinned;
    const offsets = this.store.offsets();
    for (const old of offsets.slice(this.config.checkpointsKeep))
      if (old !== pinned?.offset) this.store.delete(old);
    const kept = this.store.headers();
    const needed = new Set(kept.flatMap((header) => Object.keys(header.files)));
    for (const file of Object.keys(pinned?.files ?? {})) needed.add(file);
    for (const projection of this.projections) {
      for (const file of projection.referencedFiles?.().keys() ?? []) needed.add(file);
    }
    for (const file of this.files.list()) if (!needed.has(file)) this.files.delete(file);
    const oldest = kept[kept.length - 1];
    if (this.config.logRetention === 'compact' && oldest !== undefined) {
      await this.log.truncateBefore(oldest.offset);
    }
  }
}

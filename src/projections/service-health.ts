import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { EventLog } from '../log/event-log';
import { EVENT_LOG } from '../log/log.tokens';
import { CheckpointService } from './checkpoint.service';
import { ProjectionRunner } from './projection-runner';
import { EventLoopWatchService } from '../runtime/event-loop-watch.service';
import { STALL_REPORTED_MS } from '../runtime/event-loop-watch';

export interface HealthReport {
  /** Committed log records not yet applied to the read models. */
  readonly projectionLag: number;
  /** One line per problem, empty when healthy. */
  readonly problems: readonly string[];
}

/**
 * What /healthz and /readyz say (issues 11, 18, 27).
 *
 * Liveness (`report`, /healthz): every condition that makes the service refuse writes or lose its
 * checkpoints — a failed projection, a log poisoned by an I/O error (a full or read-only disk
 * included), a NATS stream whose history is not the one this node applied, checkpoints that keep
 * failing — and an event loop that was blocked for seconds (issue 24). A supervisor may restart on
 * these.
 *
 * Readiness (`readiness`, /readyz): liveness plus what should only take the node out of a load
 * balancer's rotation for a while — read models lagging the log by more than CHAT_READY_MAX_LAG
 * records (a node catching up after a start or another node's burst), and a log that refuses writes
 * for a reason a restart would not cure (the nats backend: NATS connection lost, the stream being
 * verified after a reconnect).
 */
@Injectable()
export class ServiceHealth {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(EVENT_LOG) private readonly log: EventLog,
    private readonly runner: ProjectionRunner,
    private readonly checkpoints: CheckpointService,
    private readonly loop: EventLoopWatchService,
  ) {}

  report(): HealthReport {
    const problems: string[] = [];
    const failure = this.runner.failure;
    if (failure)
      problems.push(`${this.runner.failureSummary} (${failure.code}); writes refused until restart`);
    const fault = this.log.writeFault?.();
    if (fault) problems.push(`event log refuses writes: ${fault.message}`);
    const checkpoint = this.checkpoints.failure;
    if (checkpoint) problems.push(checkpoint);
    const stall = this.loop.recent();
    if (stall) {
      problems.push(
        `event loop was blocked for ${(stall.ms / 1000).toFixed(1)} s (CHAT_EVENT_LOOP_STALL_MS ` +
          `${this.config.eventLoopStallMs}); reported for ${STALL_REPORTED_MS / 1000} s after it ends`,
      );
    }
    return { projectionLag: this.projectionLag(), problems };
  }

  readiness(): HealthReport {
    const { projectionLag, problems } = this.report();
    const reasons = [...problems];
    const unavailable = this.log.unavailable?.();
    if (unavailable) reasons.push(`event log refuses writes for now: ${unavailable.message}`);
    if (projectionLag > this.config.readyMaxLag) {
      reasons.push(
        `catching up: ${projectionLag} log records not applied yet (ready at ${this.config.readyMaxLag} or fewer, CHAT_READY_MAX_LAG)`,
      );
    }
    return { projectionLag, problems: reasons };
  }

  /** With a shared log (nats backend) the lag includes other nodes' records not received yet. */
  private projectionLag(): number {
    return Math.max(0, this.log.committedHead() - this.runner.nextOffset) + (this.log.backlog?.() ?? 0);
  }
}

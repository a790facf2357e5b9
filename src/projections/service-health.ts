import { Inject, Injectable } from '@nestjs/common';
import { EventLog } from '../log/event-log';
import { EVENT_LOG } from '../log/log.tokens';
import { CheckpointService } from './checkpoint.service';
import { ProjectionRunner } from './projection-runner';

export interface HealthReport {
  /** Committed log records not yet applied to the read models. */
  readonly projectionLag: number;
  /** One line per problem, empty when healthy. */
  readonly problems: readonly string[];
}

/**
 * What /healthz says (issue 11, issue 18): the projection lag, and every condition that makes the
 * service refuse writes or lose its checkpoints — a failed projection, a log poisoned by an I/O
 * error (a full or read-only disk included), checkpoints that keep failing.
 */
@Injectable()
export class ServiceHealth {
  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    private readonly runner: ProjectionRunner,
    private readonly checkpoints: CheckpointService,
  ) {}

  report(): HealthReport {
    const problems: string[] = [];
    // With a shared log (nats backend) the lag includes other nodes' records not received yet.
    const lag = Math.max(0, this.log.committedHead() - this.runner.nextOffset) + (this.log.backlog?.() ?? 0);
    const failure = this.runner.failure;
    if (failure)
      problems.push(`${this.runner.failureSummary} (${failure.code}); writes refused until restart`);
    const fault = this.log.writeFault?.();
    if (fault) problems.push(`event log refuses writes: ${fault.message}`);
    const checkpoint = this.checkpoints.failure;
    if (checkpoint) problems.push(checkpoint);
    return { projectionLag: lag, problems };
  }
}

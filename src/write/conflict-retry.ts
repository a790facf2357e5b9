import { Inject, Injectable } from '@nestjs/common';
import { EventLog } from '../log/event-log';
import { ExpectedHeadMismatchError } from '../log/log.errors';
import { EVENT_LOG } from '../log/log.tokens';
import { ProjectionRunner } from '../projections/projection-runner';

/** Decisions re-made after conflicts before the write gives up with the conflict (503). */
const MAX_ATTEMPTS = 25;

/**
 * Optimistic concurrency for writers sharing one log (issue 14). A write decides against this node's
 * caught-up read model and appends with the log's precondition; when another node appended first the
 * log refuses it (ExpectedHeadMismatchError, nothing written), and the write is decided again once
 * the log has re-synchronised and the projections applied what the other node wrote — so its seq,
 * nonce check, compare-and-set or creation now sees that write. With the file log nothing else
 * writes, the precondition never fails, and this is a single pass.
 */
@Injectable()
export class ConflictRetry {
  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    private readonly runner: ProjectionRunner,
  ) {}

  async run<T>(decideAndAppend: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await decideAndAppend();
      } catch (error) {
        if (!(error instanceof ExpectedHeadMismatchError) || attempt >= MAX_ATTEMPTS) throw error;
        await this.log.caughtUp?.();
        await this.runner.whenApplied(this.log.committedHead() - 1);
      }
    }
  }
}

import { Inject, Injectable, Optional } from '@nestjs/common';
import { EventLog } from '../log/event-log';
import { LogConflictError, LogUnavailableError } from '../log/log.errors';
import { EVENT_LOG } from '../log/log.tokens';
import { ProjectionRunner } from '../projections/projection-runner';
import { IGNORE_WRITES, WRITE_OBSERVER, WriteObserver } from './write-observer';

/** Decisions re-made after conflicts before the write gives up with the conflict (503). */
const MAX_ATTEMPTS = 25;

/**
 * Optimistic concurrency for writers sharing one log (issues 14, 26). A write decides against this
 * node's caught-up read model and appends with the scopes it read; when another node wrote to one of
 * them first the log refuses it (LogConflictError, nothing written), and the write is decided again
 * once the projections applied that other write — so its seq, nonce check, compare-and-set or
 * creation now sees it. Each retry is counted (chat_write_conflict_retries_total). With the file log
 * nothing else writes, no conflict happens, and this is a single pass.
 *
 * On a log with a write deadline (nats: CHAT_NATS_TIMEOUT_MS) the whole write — every attempt and
 * every wait for the tail — is answered within it: past the deadline the caller gets 503 while the
 * attempt in flight finishes on its own (a write already stored is applied and settled as usual).
 */
@Injectable()
export class ConflictRetry {
  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    private readonly runner: ProjectionRunner,
    @Optional() @Inject(WRITE_OBSERVER) private readonly observer: WriteObserver = IGNORE_WRITES,
  ) {}

  run<T>(decideAndAppend: () => Promise<T>): Promise<T> {
    const deadlineMs = this.log.writeDeadlineMs?.();
    if (deadlineMs === undefined) return this.attempts(decideAndAppend, Number.POSITIVE_INFINITY);
    // At the deadline, the log's own reason when it has one (NATS connection lost) says more than
    // the deadline does.
    const late = () =>
      this.log.unavailable?.() ??
      new LogUnavailableError(
        `no answer within ${deadlineMs} ms (CHAT_NATS_TIMEOUT_MS); the write may still be stored`,
      );
    return withinDeadline(this.attempts(decideAndAppend, Date.now() + deadlineMs), deadlineMs, late);
  }

  private async attempts<T>(decideAndAppend: () => Promise<T>, deadline: number): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await decideAndAppend();
      } catch (error) {
        if (!(error instanceof LogConflictError) || attempt >= MAX_ATTEMPTS || Date.now() >= deadline)
          throw error;
        this.observer.conflictRetried();
        await this.runner.whenApplied(error.mustApply);
      }
    }
  }
}

/** `work`'s outcome, or `late()` once `ms` passed (work goes on; its late outcome is dropped). */
function withinDeadline<T>(work: Promise<T>, ms: number, late: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(late()), ms);
  });
  void work.catch(() => undefined); // a late failure has nobody to tell
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

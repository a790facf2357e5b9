import { DomainError } from '../common/domain-error';

/**
 * A projection threw while applying a logged event (issue 11): the read models stopped at `offset`,
 * so every later write is refused with this error (503) instead of waiting for an apply that will
 * never come. A restart replays from the last checkpoint; a deterministic bug fails again at the
 * same offset, which the replay tool reports too.
 */
export class ProjectionFailedError extends DomainError {
  constructor(
    readonly offset: number,
    readonly eventType: string,
    readonly reason: string,
  ) {
    super(
      'projection_failed',
      `the service stopped applying its log: the ${eventType} event at offset ${offset} failed (${reason}). ` +
        'Writes are refused until an operator restarts the service; reads show the state before that event.',
    );
  }
}

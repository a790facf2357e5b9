import { DomainError } from '../common/domain-error';

/**
 * Another writer of a shared log stored a record in one of the append's scopes that the caller had
 * not decided against: nothing was written. `mustApply` is the offset of that record (or the newest
 * such the log knows): decide again once the read models applied it.
 */
export class LogConflictError extends DomainError {
  constructor(
    readonly mustApply: number,
    detail: string,
  ) {
    super('log_conflict', `another node wrote to the same room or note first (${detail}): retry the request`);
  }
}

/** The log cannot take writes (a previous write or fsync failed, or it is closed). */
export class LogUnavailableError extends DomainError {
  constructor(reason: string) {
    super('log_unavailable', `the event log is not accepting writes: ${reason}`);
  }
}

/** A record inside the retained log (not at its tail) failed its checksum. */
export class LogCorruptedError extends DomainError {
  constructor(
    readonly segment: string,
    readonly position: number,
    reason: string,
  ) {
    super('log_corrupted', `log segment ${segment} is damaged at byte ${position}: ${reason}`);
  }
}

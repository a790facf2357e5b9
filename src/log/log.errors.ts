import { DomainError } from '../common/domain-error';

/** The caller's expected head did not match: nothing was written. Carries both values. */
export class ExpectedHeadMismatchError extends DomainError {
  constructor(
    readonly expected: number,
    readonly actual: number,
  ) {
    super('log_conflict', `log head is ${actual}, expected ${expected}`);
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

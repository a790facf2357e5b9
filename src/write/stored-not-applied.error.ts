import { DomainError } from '../common/domain-error';

/**
 * The log stored the write, then the read models failed to apply it (issue 24 item 4: a ring file
 * write hit a full disk after the commit). The write is durable and a restart applies it again, so
 * "nothing was stored" (507) would be a lie, and a blind resend would store it twice: 503 saying so.
 */
export class StoredNotAppliedError extends DomainError {
  constructor(
    readonly offset: number,
    cause: string,
  ) {
    super(
      'stored_not_applied',
      `the write was stored (log offset ${offset}) but the read models could not apply it (${cause}). ` +
        'It is not readable yet and appears once an operator fixes the cause and restarts the service. ' +
        'Do not resend it: a resend is stored a second time unless it carries the same Idempotency-Key.',
    );
  }
}

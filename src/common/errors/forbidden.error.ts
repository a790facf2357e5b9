import { DomainError } from '../domain-error';

/** The target refuses this lane (events room, mailbox, owned room, reserved namespace): status 403. */
export class ForbiddenError extends DomainError {
  constructor(message: string) {
    super('forbidden', message);
  }
}

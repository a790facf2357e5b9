import { DomainError } from '../../common/domain-error';

/** A request reached a node that is shutting down (Fastify's 503 on closing, in this service's words). */
export class ShuttingDownError extends DomainError {
  constructor() {
    super(
      'shutting_down',
      'shutting down: this node is stopping and did not process the request. Retry it on a new connection ' +
        '(another node, or this one once it is back); nothing was changed.',
      { connection: 'close' },
    );
  }
}

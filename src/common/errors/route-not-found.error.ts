import { DomainError } from '../domain-error';

/**
 * No route matches. Raised by handlers for paths the reference's router would not have matched
 * (a newline inside a free-form segment); the HTTP layer answers with the route map.
 */
export class RouteNotFoundError extends DomainError {
  constructor() {
    super('route_not_found', 'no route matched');
  }
}

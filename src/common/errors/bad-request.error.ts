import { DomainError } from '../domain-error';

/** Malformed input: a name, a parameter, a body field or a text that fails its rule (status 400). */
export class BadRequestError extends DomainError {
  constructor(message: string) {
    super('bad_request', message);
  }
}

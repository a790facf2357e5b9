import { DomainError } from '../../common/domain-error';

/**
 * A did:key the signed lane cannot use (contract §8.6, status 400). The message is one of the
 * reference's four bodies without the leading "400 ", e.g. `bad did:key: expected did:key:z6Mk...`.
 */
export class BadDidKeyError extends DomainError {
  constructor(message: string) {
    super('bad_request', message);
  }
}

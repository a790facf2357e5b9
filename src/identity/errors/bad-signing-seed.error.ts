import { DomainError } from '../../common/domain-error';

/** A signing seed that is neither 64 hex characters nor 43 base64url characters (32 bytes). */
export class BadSigningSeedError extends DomainError {
  constructor() {
    super('bad_request', 'bad seed: expected 32 bytes as 64 hex characters or 43 base64url characters');
  }
}

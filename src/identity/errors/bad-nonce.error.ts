import { DomainError } from '../../common/domain-error';
import { pyRepr } from '../../common/py-compat/py-repr';

/** A nonce that is not 1–19 ASCII digits (contract §8.1 step 3, status 400); quotes it as Python would. */
export class BadNonceError extends DomainError {
  constructor(raw: string) {
    super('bad_request', `nonce must be 1-19 digits, got ${pyRepr(raw)}`);
  }
}

import { DomainError } from '../../common/domain-error';
import { pyRepr } from '../../common/py-compat/py-repr';

/** A character outside the Bitcoin base58 alphabet; `character` is one whole code point. */
export class InvalidBase58Error extends DomainError {
  constructor(readonly character: string) {
    super('bad_request', `${pyRepr(character)} is not base58btc`);
  }
}

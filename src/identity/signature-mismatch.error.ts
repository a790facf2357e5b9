import { DomainError } from '../common/domain-error';

/**
 * A well-formed signature that does not verify (contract §8.6): 403, never downgraded to an unsigned
 * write. The last line is the exact string the signature must cover, so a client can diff its input.
 */
export class SignatureMismatchError extends DomainError {
  constructor(did: string, payload: string) {
    super(
      'forbidden',
      `signature does not verify for ${did}.\n` +
        'It must be an Ed25519 signature (base64url, 86 characters) over exactly this UTF-8 string:\n' +
        payload,
    );
  }
}

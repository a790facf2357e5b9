import { DomainError } from '../../common/domain-error';

/**
 * A signature that is not canonical unpadded base64url of 64 bytes (contract §8.6, status 400).
 * The text is the reference's body without the leading "400 ".
 */
export class BadSignatureEncodingError extends DomainError {
  constructor() {
    super('bad_request', 'bad signature encoding: 86 base64url characters ending AQgw');
  }
}

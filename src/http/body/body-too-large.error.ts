import { DomainError } from '../../common/domain-error';

/** A POST body over the cap (contract §8.7): by its declared Content-Length or by what it streamed. */
export class BodyTooLargeError extends DomainError {
  constructor(capBytes: number, declaredBytes: bigint | null) {
    super(
      'body_too_large',
      `body too large: the cap is ${capBytes} bytes, which fits the documented caps (4096-character ` +
        'messages, 8192-character notes) in any JSON encoding.\n' +
        'Split long content into several messages or notes.\n' +
        (declaredBytes !== null
          ? `your Content-Length said ${declaredBytes} bytes.`
          : 'the stream passed it before it ended.'),
      declaredBytes === null ? { connection: 'close' } : {},
    );
  }
}

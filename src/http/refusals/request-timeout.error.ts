import { DomainError } from '../../common/domain-error';
import { formatG } from '../../common/py-compat/py-format';

/** Node's request or headers timer fired (CHAT_REQUEST_TIMEOUT_SECONDS, CHAT_HEADERS_TIMEOUT_SECONDS). */
export class RequestTimeoutError extends DomainError {
  constructor(requestSeconds: number, headersSeconds: number) {
    super(
      'request_timeout',
      `request timeout: the request did not arrive whole within ${formatG(requestSeconds)}s (its headers ` +
        `within ${formatG(headersSeconds)}s). Send the request at once, headers and body, on a new connection.`,
      { connection: 'close' },
    );
  }
}

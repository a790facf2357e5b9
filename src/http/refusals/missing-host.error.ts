import { DomainError } from '../../common/domain-error';

/**
 * An HTTP/1.1 request without Host (RFC 9112 §3.2 requires a 400): Node answered it itself with an
 * empty 400; now it gets the error table's body (issue 24 item 8).
 */
export class MissingHostError extends DomainError {
  constructor() {
    super(
      'malformed_request',
      'malformed request: HTTP/1.1 requires a Host header naming the server (Host: <its name>); every HTTP ' +
        'client sends one. Add it, or send HTTP/1.0.',
      { connection: 'close' },
    );
  }
}

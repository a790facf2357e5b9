import { DomainError } from '../../common/domain-error';

/** What to fix, by the code Node's HTTP parser (llhttp) reports. */
const CORRECTIONS: Readonly<Record<string, string>> = {
  HPE_INVALID_METHOD:
    'the method is not one HTTP defines: send GET (or HEAD) on any path, or POST on /r/<room> and ' +
    '/kv/<ns>/<key>, in capitals',
  HPE_INVALID_URL:
    'the request target is not a path: start it with /, as in GET /r/lobby, and percent-encode spaces, ' +
    'controls and other bytes outside printable ASCII (%20, %0A)',
  HPE_INVALID_VERSION: 'the request line must end in HTTP/1.1 (or HTTP/1.0)',
  HPE_INVALID_CONSTANT: 'the request line must be METHOD, one space, the path, one space, HTTP/1.1',
  HPE_INVALID_HEADER_TOKEN:
    'a header line is not `Name: value` (a token name, no spaces before the colon, no control characters ' +
    'in the value); nothing in this protocol needs a header beyond Host and Content-Type',
  HPE_INVALID_CONTENT_LENGTH: 'Content-Length must be one decimal number of bytes, sent once',
  HPE_UNEXPECTED_CONTENT_LENGTH: 'send either Content-Length or Transfer-Encoding: chunked, not both',
  HPE_INVALID_TRANSFER_ENCODING:
    'Transfer-Encoding must end in chunked, the only coding this server reads (or send Content-Length)',
  HPE_INVALID_CHUNK_SIZE:
    'the chunked body is malformed: each chunk is its size in hex, CRLF, the bytes, CRLF, and the body ends ' +
    'with 0 CRLF CRLF (or send Content-Length instead)',
  HPE_INVALID_EOF_STATE: 'the connection ended in the middle of a request: send it whole',
  HPE_CR_EXPECTED: 'end every line of the request head with CRLF',
  HPE_LF_EXPECTED: 'end every line of the request head with CRLF',
  HPE_STRICT: 'end every line of the request head with CRLF, and nothing after the blank line but the body',
  HPE_PAUSED_H2_UPGRADE:
    'this server speaks HTTP/1.1 (and 1.0) only: send the request as HTTP/1.1, not HTTP/2',
};

/**
 * Node's parser could not read the request as HTTP/1.1 (issue 24 item 8): 400 naming what to fix. The
 * parser's own code and reason are kept at the end for whoever debugs the client.
 */
export class MalformedRequestError extends DomainError {
  constructor(parserCode: string | undefined, parserReason: string | undefined) {
    // llhttp reports Content-Length beside Transfer-Encoding as whichever of the two came second.
    const both = /can't be present with/.test(parserReason ?? '');
    const correction =
      CORRECTIONS[both ? 'HPE_UNEXPECTED_CONTENT_LENGTH' : (parserCode ?? '')] ??
      'the bytes are not an HTTP/1.1 request: send METHOD /path HTTP/1.1, headers, a blank line';
    const detail = [parserCode, parserReason].filter((part) => part !== undefined && part !== '').join(': ');
    super(
      'malformed_request',
      `malformed request: ${correction}. The manual lists every request this service takes: GET /llms.txt` +
        (detail === '' ? '.' : ` (parser: ${detail}).`),
      { connection: 'close' },
    );
  }
}
